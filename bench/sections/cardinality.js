'use strict';
/**
 * Section 7: `count by` over a million distinct keys (BENCH_HC_KEYS), the answer of every group:
 * time and peak memory of the service's search against the same SQL GROUP BY, both returning
 * every row. Memory is the growth of anonymous resident memory (RssAnon: heaps, not shared
 * buffers or mapped files) over the run, sampled every 50 ms: of the service process (its search
 * workers are threads of it) and of the PostgreSQL backend running the GROUP BY. The entries go
 * into the service through its ingest and into bench_rows (the old row layout) with psql \\copy.
 */
const fs = require('node:fs');
const path = require('node:path');
const { once } = require('node:events');
const { finished } = require('node:stream/promises');
const { CFG, DAY, TODAY, log, notes, row, ingestSink, loadRate, copyRows, settleCompaction, blockCounts, tagId, search, best, tableRows } = require('../context');

/** Samples RssAnon (MiB) of `pid` every 50 ms until stopped; answers the peak minus the first sample. */
function anonSampler(pid) {
  const read = () => {
    try {
      const m = /RssAnon:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  };
  const first = read();
  let peak = first;
  const timer = setInterval(() => (peak = Math.max(peak, read())), 50);
  return () => {
    clearInterval(timer);
    return Math.max(0, Math.max(peak, read()) - first);
  };
}

/** Runs `fn` `runs` times; answers the best time, the largest memory growth and the last value. */
async function measured(runs, pid, fn) {
  let grow = 0;
  const r = await best(runs, async () => {
    const stop = anonSampler(pid);
    try {
      return await fn();
    } finally {
      grow = Math.max(grow, stop());
    }
  });
  return { ...r, mib: grow };
}

/**
 * `keys` distinct keys, `perKey` entries each (20 a millisecond from `fromMs`), as a COPY file
 * (`tag`: the tag number) and into `sink` (see ingestSink); answers what the sink loaded.
 */
async function writeKeys(file, tag, keys, perKey, fromMs, sink) {
  const out = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
  let buf = [];
  for (let i = 0; i < keys * perKey; i++) {
    const k = i % keys;
    const ts = fromMs + Math.floor(i / 20);
    const line = `k=key${String(k).padStart(7, '0')} n=${i}`;
    buf.push(`${new Date(ts).toISOString()}\t${tag}\t127.0.0.1\t${line}\n`);
    const wait = sink.add(ts, line);
    if (wait) await wait;
    if (buf.length >= 10000) {
      if (!out.write(buf.join(''))) await once(out, 'drain');
      buf = [];
    }
  }
  out.end(buf.join(''));
  await finished(out);
  return sink.close();
}

async function cardinalitySection({ base, dbUrl, db, tmp, user, svcPid }) {
  const keys = CFG.hcKeys;
  const perKey = CFG.hcPerKey;
  const day = TODAY - 60 * DAY;
  const tag = await tagId(db, 'hc');
  const file = path.join(tmp, 'hc.copy');
  log(`7. cardinality: ${keys} keys x ${perKey} entries, into the service through PUT /api/ingest/json and into bench_rows with psql \\copy`);
  const loaded = await writeKeys(file, tag, keys, perKey, day, ingestSink({ base, user, tag: 'hc' }));
  log(`7. cardinality: the service ingested ${loadRate(loaded)}`);
  await copyRows(dbUrl, db, day, file);
  fs.rmSync(file, { force: true });
  await db.query('VACUUM ANALYZE bench_rows');
  await settleCompaction(db);
  await db.query('VACUUM ANALYZE block');
  const stored = (await blockCounts(db, day)).hc;
  if (stored !== keys * perKey) notes.push(`cardinality: the service stores ${stored} hc entries, ${keys * perKey} were sent`);
  const g = `7 cardinality (${keys} distinct keys, ${keys * perKey} entries, best of ${CFG.hcRuns})`;
  const q = 'tag=hc kv k | count by k | table k count';

  const svc = await measured(CFG.hcRuns, svcPid, () => search(base, user, q, day, day + DAY));
  const backend = (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const sql = await measured(CFG.hcRuns, backend, () =>
    db.query(`SELECT substring(convert_from(data, 'UTF8') FROM 'k=([^ ]*)') AS k, count(*)::int AS n FROM bench_rows WHERE tag = $1 AND ts >= $2 AND ts < $3 GROUP BY 1`, [
      tag,
      new Date(day),
      new Date(day + DAY),
    ]),
  );
  const rows = tableRows(svc.value.body);
  const total = (xs) => xs.reduce((t, x) => t + x, 0);
  if (rows.length !== sql.value.rows.length || total(rows.map((r) => Number(r[1]))) !== total(sql.value.rows.map((r) => r.n))) {
    notes.push(`cardinality results differ: service ${rows.length} groups, SQL ${sql.value.rows.length}`);
  }
  row(g, `\`${q}\` time (every row returned)`, svc.ms / 1000, 's', 'SQL GROUP BY substring() (bench_rows), every row to the client', sql.ms / 1000, 'lower');
  row(g, 'same, peak memory growth (RssAnon)', svc.mib, 'MiB', 'the PostgreSQL backend running the GROUP BY', sql.mib, 'lower');
  const work = (await db.query('SHOW work_mem')).rows[0].work_mem;
  notes.push(
    `cardinality: PostgreSQL aggregates within work_mem (${work}) x hash_mem_multiplier and spills the rest to disk; the service holds every group in memory (bounded by SEARCH_MAX_TRACKED).`,
  );
}

module.exports = { cardinalitySection };
