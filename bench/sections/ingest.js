'use strict';
/** Section 2: ingest through PUT /api/ingest/json and HEC against psql \\copy of the same rows into bench_rows (the old row layout). */
const fs = require('node:fs');
const path = require('node:path');
const L = require('../lib');
const { performance } = L;
const { CFG, DAY, TODAY, log, notes, row, rowsPartition, copyRows, settleCompaction, blockCounts, tagId } = require('../context');

/** Runs `bodies` through `send` with `concurrency` in flight; returns seconds. */
async function pump(bodies, concurrency, send) {
  let i = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < bodies.length) await send(bodies[i++]);
    }),
  );
  return (performance.now() - t0) / 1000;
}

async function ingestSection({ base, dbUrl, db, tmp, user, ingestToken }) {
  const n = CFG.ingestEntries;
  log(`2. ingest: ${n} entries in batches of ${CFG.batch}, ${CFG.ingestConcurrency} in flight`);
  const day = TODAY - 45 * DAY;
  // The same rows for the three paths (own tags; the service's day partition, and bench_rows' own).
  const next = L.lineGenerator(2);
  const lines = Array.from({ length: n }, (_, i) => {
    const ts = day + Math.floor((i * DAY) / n);
    return { ts, line: next(ts) };
  });
  const bytes = lines.reduce((s, l) => s + Buffer.byteLength(l.line), 0);
  const batches = [];
  for (let i = 0; i < n; i += CFG.batch) batches.push(lines.slice(i, i + CFG.batch));
  const jsonBodies = batches.map((b) => JSON.stringify(b.map((l) => ({ TS: new Date(l.ts).toISOString(), Tag: 'ingestjson', Data: Buffer.from(l.line).toString('base64') }))));
  const hecBodies = batches.map((b) => b.map((l) => JSON.stringify({ time: l.ts / 1000, event: l.line, sourcetype: 'ingesthec' })).join('\n'));
  const copyFile = path.join(tmp, 'ingest.copy');
  const copyTag = await tagId(db, 'ingestcopy');
  fs.writeFileSync(copyFile, lines.map((l) => `${new Date(l.ts).toISOString()}\t${copyTag}\t127.0.0.1\t${l.line}\n`).join(''));
  // Warm the partition and tag caches outside the timing (and make bench_rows' day partition).
  await L.ok(base, 'PUT', '/api/ingest/json', { headers: user, body: jsonBodies[0].slice(0, jsonBodies[0].indexOf('},') + 1) + ']' });
  await rowsPartition(db, day);

  const jsonSecs = await pump(jsonBodies, CFG.ingestConcurrency, (body) =>
    L.ok(base, 'PUT', '/api/ingest/json', { headers: { ...user, 'Content-Type': 'application/json' }, body }),
  );
  const hecSecs = await pump(hecBodies, CFG.ingestConcurrency, (body) =>
    L.ok(base, 'POST', '/services/collector/event', { headers: { Authorization: `Splunk ${ingestToken}` }, body }),
  );
  const copySecs = await copyRows(dbUrl, db, day, copyFile);
  const got = await blockCounts(db, day);
  got.ingestcopy = (await db.query('SELECT count(*)::int AS n FROM bench_rows WHERE tag = $1 AND ts >= $2 AND ts < $3', [copyTag, new Date(day), new Date(day + DAY)])).rows[0].n;
  if (got.ingestjson !== n + 1 || got.ingesthec !== n || got.ingestcopy !== n) notes.push(`ingest counts differ: ${JSON.stringify(got)} (expected ${n}, +1 warm-up json)`);
  const mb = bytes / 2 ** 20;
  const g = `2 ingest (${n} entries, ${(bytes / n).toFixed(0)} B each, batches of ${CFG.batch} x${CFG.ingestConcurrency})`;
  row(g, 'PUT /api/ingest/json entries/s', n / jsonSecs, 'entries/s', 'psql \\copy (COPY FROM STDIN) into bench_rows', n / copySecs, 'higher');
  row(g, 'PUT /api/ingest/json MB/s (raw data)', mb / jsonSecs, 'MiB/s', 'psql \\copy', mb / copySecs, 'higher');
  row(g, 'HEC /services/collector/event entries/s', n / hecSecs, 'entries/s', 'psql \\copy', n / copySecs, 'higher');
  row(g, 'HEC MB/s (raw data)', mb / hecSecs, 'MiB/s', 'psql \\copy', mb / copySecs, 'higher');
  fs.rmSync(copyFile, { force: true });
  // Batches this small make small blocks: let the background compaction merge them before the next section measures.
  await settleCompaction(db);
}

module.exports = { ingestSection };
