'use strict';
/**
 * Section 3: grep and kv aggregation over generated log lines against grep -c, rg -c and
 * hand-written SQL over the old row layout (bench_rows); the bytes the service stores for them.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const L = require('../lib');
const { performance } = L;
const {
  CFG,
  DAY,
  log,
  notes,
  row,
  state,
  writeLines,
  ingestSink,
  scanSpec,
  loadRate,
  partitionOf,
  copyRows,
  settleCompaction,
  tagId,
  search,
  best,
  tableRows,
} = require('../context');

function countLines(cmd, file) {
  const t = performance.now();
  const out = execFileSync(cmd, ['-c', '-F', L.NEEDLE, file], { encoding: 'utf8', maxBuffer: 1 << 20 }).trim();
  return { ms: performance.now() - t, count: Number(out) };
}

/** Size on disk of a table (heap, TOAST, indexes, free space and visibility maps). */
async function totalSize(db, table) {
  return Number((await db.query('SELECT pg_total_relation_size($1::regclass)::float8 AS b', [table])).rows[0].b);
}

async function scanSection({ base, dbUrl, db, tmp, user }) {
  const spec = scanSpec();
  const { day } = spec;
  log(`3. scan: generating ${CFG.scanMb} MiB of log lines into a log file, a COPY file and PUT /api/ingest/json (batches of ${CFG.loadBatch}, ${CFG.loadConcurrency} in flight)`);
  // The tag number of the service's tag map, so that the bench_rows rows carry the same one.
  const scanTag = await tagId(db, 'scan');
  const copyFile = path.join(tmp, 'scan.copy');
  const logFile = path.join(tmp, 'scan.log');
  const { count, bytes, loaded } = await writeLines({ ...spec, tag: scanTag, copyFile, logFile, sinks: [ingestSink({ base, user, tag: 'scan' })] });
  log(`3. scan: the service ingested ${loadRate(loaded[0])}`);
  notes.push(`scan data (section 3) loaded through PUT /api/ingest/json: ${loadRate(loaded[0])}, generated in the bench process at the same time`);
  log(`3. scan: loading ${count} lines (${(bytes / 2 ** 20).toFixed(0)} MiB) into bench_rows with psql \\copy, then VACUUM ANALYZE`);
  const copySecs = await copyRows(dbUrl, db, day, copyFile);
  log(`3. scan: psql \\copy of bench_rows took ${copySecs.toFixed(1)} s`);
  fs.rmSync(copyFile, { force: true });
  await db.query('VACUUM ANALYZE bench_rows');
  await settleCompaction(db);
  await db.query('VACUUM ANALYZE block');
  const fileBytes = fs.statSync(logFile).size;
  const start = day;
  const end = day + DAY;
  const gb = fileBytes / 1e9;
  const g = `3 scan (${count} lines, ${(fileBytes / 2 ** 20).toFixed(0)} MiB, best of ${CFG.scanRuns})`;

  // What is stored: the block partition of the scan day (it holds tag scan only) against the
  // entries' data (the lines without their newlines).
  const part = partitionOf('block', day);
  const blocks = (
    await db.query(
      `SELECT count(*)::int AS blocks, count(DISTINCT tag)::int AS tags, coalesce(sum(n), 0)::float8 AS n, coalesce(sum(raw), 0)::float8 AS raw, coalesce(sum(octet_length(body)), 0)::float8 AS body FROM ${part}`,
    )
  ).rows[0];
  if (blocks.tags !== 1) notes.push(`scan: ${part} holds ${blocks.tags} tags; its size is not the scan data's alone`);
  if (blocks.n !== count || blocks.raw !== bytes)
    notes.push(`scan: the service stores ${blocks.n} entries and ${blocks.raw} raw bytes in ${part}, ${count} lines of ${bytes} bytes were generated`);
  const stored = await totalSize(db, part);
  const rowsStored = await totalSize(db, partitionOf('bench_rows', day));
  row(
    g,
    `stored bytes of the scanned data (${part}: pg_total_relation_size, ${blocks.blocks} blocks)`,
    stored / 2 ** 20,
    'MiB',
    'raw bytes of the lines (without newlines)',
    bytes / 2 ** 20,
    'lower',
  );
  notes.push(
    `stored bytes (section 3): the block bodies alone are ${(blocks.body / 2 ** 20).toFixed(1)} MiB (${(blocks.body / bytes).toFixed(3)}x of the raw bytes), ` +
      `rows, TOAST, the (tag, hi) index and maps add ${((stored - blocks.body) / 2 ** 20).toFixed(1)} MiB; ` +
      `the old row layout (bench_rows, heap + TOAST + BRIN) holds the same lines in ${(rowsStored / 2 ** 20).toFixed(1)} MiB, ${(rowsStored / bytes).toFixed(2)}x of the raw bytes`,
  );

  const q = `tag=scan grep "${L.NEEDLE}" | count | table`;
  const svc = await best(CFG.scanRuns, () => search(base, user, q, start, end));
  const svcCount = Number(tableRows(svc.value.body)[0]?.[0]);
  log(`3. scan: \`${q}\` runs (ms): ${svc.all.map(Math.round).join(', ')}`);
  const gr = await best(CFG.scanRuns, async () => countLines('grep', logFile));
  if (gr.value.count !== svcCount) notes.push(`grep count mismatch: service ${svcCount}, grep -c ${gr.value.count}`);
  row(g, `\`${q}\` time`, svc.ms / 1000, 's', 'grep -c -F (file)', gr.ms / 1000, 'lower');
  row(g, 'same, GB/s', gb / (svc.ms / 1000), 'GB/s', 'grep -c -F (file)', gb / (gr.ms / 1000), 'higher');
  if (L.which('rg')) {
    const rg = await best(CFG.scanRuns, async () => countLines('rg', logFile));
    if (rg.value.count !== svcCount) notes.push(`rg count mismatch: service ${svcCount}, rg -c ${rg.value.count}`);
    row(g, 'same, GB/s', gb / (svc.ms / 1000), 'GB/s', 'rg -c -F (file)', gb / (rg.ms / 1000), 'higher');
  } else notes.push('rg is not installed: the rg -c baseline was skipped (apt-get install ripgrep)');
  const sqlGrep = await best(CFG.scanRuns, () =>
    db.query(`SELECT count(*)::int AS n FROM bench_rows WHERE tag = $1 AND ts >= $2 AND ts < $3 AND position($4::bytea IN data) > 0`, [
      scanTag,
      new Date(start),
      new Date(end),
      Buffer.from(L.NEEDLE),
    ]),
  );
  if (sqlGrep.value.rows[0].n !== svcCount) notes.push(`SQL grep count mismatch: service ${svcCount}, SQL ${sqlGrep.value.rows[0].n}`);
  row(g, 'same, time', svc.ms / 1000, 's', 'hand-written SQL count(*) with position() (bench_rows)', sqlGrep.ms / 1000, 'lower');
  state.scan = { day, count, bytes, fileBytes, grepCount: gr.value.count };

  const qa = 'tag=scan kv status | count by status | table';
  log(`3. scan: aggregation ${qa}`);
  const agg = await best(CFG.scanRuns, () => search(base, user, qa, start, end));
  const sqlAgg = await best(CFG.scanRuns, () =>
    db.query(
      `SELECT substring(convert_from(data, 'UTF8') FROM ' status=([^ ]*)') AS status, count(*)::int AS n FROM bench_rows WHERE tag = $1 AND ts >= $2 AND ts < $3 GROUP BY 1`,
      [scanTag, new Date(start), new Date(end)],
    ),
  );
  const svcMap = Object.fromEntries(tableRows(agg.value.body).map((r) => [r[0], Number(r[1])]));
  const sqlMap = Object.fromEntries(sqlAgg.value.rows.map((r) => [r.status, r.n]));
  if (JSON.stringify(Object.entries(svcMap).sort()) !== JSON.stringify(Object.entries(sqlMap).sort()))
    notes.push(`aggregation results differ: service ${JSON.stringify(svcMap)} vs SQL ${JSON.stringify(sqlMap)}`);
  row(g, `\`${qa}\` time`, agg.ms / 1000, 's', 'hand-written SQL GROUP BY substring() (bench_rows)', sqlAgg.ms / 1000, 'lower');
  row(g, 'same, GB/s', gb / (agg.ms / 1000), 'GB/s', 'hand-written SQL (bench_rows)', gb / (sqlAgg.ms / 1000), 'higher');
  fs.rmSync(logFile, { force: true });
}

module.exports = { scanSection };
