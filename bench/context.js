'use strict';
/** What every bench section shares: knobs, the results table, and helpers to load data and search. */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { once } = require('node:events');
const { finished } = require('node:stream/promises');
const L = require('./lib');
const { performance } = L;

const ROOT = path.resolve(__dirname, '..');
const env = (name, def) => (process.env[name] !== undefined && process.env[name] !== '' ? Number(process.env[name]) : def);
const CFG = {
  apiSeconds: env('BENCH_API_SECONDS', 10),
  apiConnections: env('BENCH_API_CONNECTIONS', 16),
  ingestEntries: env('BENCH_INGEST_ENTRIES', 200_000),
  batch: env('BENCH_BATCH', 1000),
  ingestConcurrency: env('BENCH_INGEST_CONCURRENCY', 4),
  scanMb: env('BENCH_SCAN_MB', 1024),
  scanRuns: env('BENCH_SCAN_RUNS', 2),
  scalePerDay: env('BENCH_SCALE_PER_DAY', 50_000),
  scaleRuns: env('BENCH_SCALE_RUNS', 9),
  mixedSeconds: env('BENCH_MIXED_SECONDS', 15),
  loginSeconds: env('BENCH_LOGIN_SECONDS', 10),
  loginConnections: env('BENCH_LOGIN_CONNECTIONS', 8),
  bcryptRounds: env('BENCH_BCRYPT_ROUNDS', 12),
  hcKeys: env('BENCH_HC_KEYS', 1_000_000),
  hcPerKey: env('BENCH_HC_PER_KEY', 2),
  hcRuns: env('BENCH_HC_RUNS', 2),
  loadBatch: env('BENCH_LOAD_BATCH', 5000),
  loadConcurrency: env('BENCH_LOAD_CONCURRENCY', 4),
};
const ONLY = (process.env.BENCH_SECTIONS || 'api,ingest,scan,scale,login,imports,cardinality,scaleout').split(',');
const DAY = 86_400_000;
const TODAY = Math.floor(Date.now() / DAY) * DAY;
const ADMIN_PASSWORD = 'bench-admin-password';
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret!!';
const USER = { User: 'bench', Pass: 'bench-password-1', Name: 'Bench', Email: 'bench@example.com', Admin: false };

const rows = [];
const notes = [];
const log = (m) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
/** A table row: the service figure, its baseline and service/baseline. */
function row(section, figure, value, unit, baselineName, baseline, better) {
  rows.push({ section, figure, value, unit, baselineName, baseline, ratio: value / baseline, better });
  log(`${section} | ${figure}: ${fmt(value)} ${unit} vs ${baselineName} ${fmt(baseline)} (x${fmt(value / baseline)})`);
}
const fmt = (v) => (v === undefined || Number.isNaN(v) ? 'n/a' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(v < 0.1 ? 3 : 2));

/**
 * Shared between sections. `codec`: the block sizes of the build (run.js sets them from
 * dist/indexer/block-codec.js). `scan`: what section 3 loaded into the service (section 9 reuses it).
 */
const state = { codec: { BLOCK_TARGET_BYTES: 1 << 20, SMALL_BLOCK_BYTES: 1 << 18, SMALL_BLOCK_ENTRIES: 1 << 14 }, scan: undefined };

function psql(url, command, stdinFile) {
  const args = [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', command];
  return new Promise((resolve, reject) => {
    const stdin = stdinFile ? fs.openSync(stdinFile, 'r') : 'ignore';
    const child = spawn('psql', args, { stdio: [stdin, 'pipe', 'pipe'] });
    if (typeof stdin === 'number') child.on('close', () => fs.closeSync(stdin));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`psql ${command}: ${code} ${out}`))));
  });
}

/**
 * Streams entries into a service through `PUT /api/ingest/json` (base64 Data, the service's own
 * ingest path): batches of `batch` entries, cut earlier once their data would pass one block
 * (BLOCK_TARGET_BYTES), `concurrency` batches in flight. `add(tsMs, line)` answers a promise to
 * await only when it had to wait for a batch slot (backpressure: at most `concurrency` + 1 bodies
 * in memory); `close()` sends the rest, waits for every answer and reports what went in.
 */
function ingestSink({ base, user, tag, batch = CFG.loadBatch, concurrency = CFG.loadConcurrency }) {
  const headers = { ...user, 'Content-Type': 'application/json' };
  const inflight = new Set();
  const prefix = `{"Tag":${JSON.stringify(tag)},"TS":"`;
  let parts = [];
  let partBytes = 0;
  let entries = 0;
  let bytes = 0;
  let requests = 0;
  let failed;
  const t0 = performance.now();
  const send = async () => {
    const body = `[${parts.join(',')}]`;
    parts = [];
    partBytes = 0;
    requests++;
    const p = L.ok(base, 'PUT', '/api/ingest/json', { headers, body })
      .then(
        () => undefined,
        (err) => (failed ??= err),
      )
      .finally(() => inflight.delete(p));
    inflight.add(p);
    while (inflight.size >= concurrency) await Promise.race(inflight);
    if (failed) throw failed;
  };
  return {
    add(tsMs, line) {
      const data = Buffer.from(line);
      const full = parts.length && (parts.length >= batch || partBytes + data.length > state.codec.BLOCK_TARGET_BYTES);
      const wait = full ? send() : undefined;
      parts.push(`${prefix}${new Date(tsMs).toISOString()}","Data":"${data.toString('base64')}"}`);
      partBytes += data.length;
      entries++;
      bytes += data.length;
      return wait;
    },
    async close() {
      if (parts.length) await send();
      await Promise.all(inflight);
      if (failed) throw failed;
      return { entries, bytes, requests, seconds: (performance.now() - t0) / 1000 };
    },
  };
}

/**
 * Generates `n` lines (at most `maxBytes` of them, newlines not counted) with timestamps in
 * [fromMs, toMs), one pass, streaming: to a COPY text file for `bench_rows` (`tag`: the tag
 * number), a plain log file (one line each), and ingest sinks (see ingestSink), each optional.
 * Closes the sinks; answers the lines' count and bytes, and what each sink loaded.
 */
async function writeLines({ seed, n, fromMs, toMs, tag, copyFile, logFile, maxBytes, sinks = [] }) {
  const next = L.lineGenerator(seed);
  const copy = copyFile ? fs.createWriteStream(copyFile, { highWaterMark: 1 << 20 }) : undefined;
  const plain = logFile ? fs.createWriteStream(logFile, { highWaterMark: 1 << 20 }) : undefined;
  const step = (toMs - fromMs) / n;
  let bytes = 0;
  let count = 0;
  let cbuf = [];
  let pbuf = [];
  const flush = async () => {
    if (copy && !copy.write(cbuf.join(''))) await once(copy, 'drain');
    if (plain && !plain.write(pbuf.join(''))) await once(plain, 'drain');
    cbuf = [];
    pbuf = [];
  };
  for (let i = 0; i < n && (!maxBytes || bytes < maxBytes); i++) {
    const ts = fromMs + Math.floor(i * step);
    const line = next(ts);
    bytes += Buffer.byteLength(line);
    count++;
    if (copy) cbuf.push(`${new Date(ts).toISOString()}\t${tag}\t127.0.0.1\t${line}\n`);
    if (plain) pbuf.push(line + '\n');
    for (const sink of sinks) {
      const wait = sink.add(ts, line);
      if (wait) await wait;
    }
    if (count % 5000 === 0) await flush();
  }
  await flush();
  copy?.end();
  plain?.end();
  // finished() also resolves for a stream that has already finished (awaiting its 'finish' event
  // one stream after the other could miss the second one's and hang).
  await Promise.all([copy && finished(copy), plain && finished(plain)]);
  const loaded = [];
  for (const sink of sinks) loaded.push(await sink.close());
  return { count, bytes, loaded };
}

/** The scanned data of sections 3 and 9: the same lines for both (deterministic). */
function scanSpec() {
  const day = TODAY - 40 * DAY;
  const maxBytes = CFG.scanMb * 2 ** 20;
  return { day, seed: 3, n: Math.ceil(maxBytes / 180) * 2, fromMs: day, toMs: day + DAY / 2, maxBytes };
}

/** "1234567 entries in 12.3 s (100000 entries/s, 16.5 MiB/s, 247 requests)" of an ingestSink load. */
const loadRate = (l) =>
  `${l.entries} entries in ${l.seconds.toFixed(1)} s (${Math.round(l.entries / l.seconds)} entries/s, ${(l.bytes / 2 ** 20 / l.seconds).toFixed(1)} MiB/s, ${l.requests} requests)`;

/**
 * The SQL baselines' table: the layout before blocks (one row per entry, as `entry` was up to
 * ea47859^), partitioned by UTC day with a BRIN index on time. The service never reads it.
 */
const ROWS_SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS bench_rows (
     ts timestamptz NOT NULL,
     tag smallint NOT NULL,
     src text NOT NULL DEFAULT '',
     data bytea NOT NULL,
     evs jsonb NULL
   ) PARTITION BY RANGE (ts)`,
  `CREATE INDEX IF NOT EXISTS bench_rows_ts_brin ON bench_rows USING brin (ts)`,
];
const ymd = (dayMs) => new Date(dayMs).toISOString().slice(0, 10).replace(/-/g, '');
/** `block_p20261122` / `bench_rows_p20261122`: the day partition of a table holding `dayMs`. */
const partitionOf = (table, dayMs) => `${table}_p${ymd(Math.floor(dayMs / DAY) * DAY)}`;

/** Creates bench_rows and its partition of the day of `dayMs` if missing. */
async function rowsPartition(db, dayMs) {
  for (const sql of ROWS_SCHEMA_SQL) await db.query(sql);
  const from = Math.floor(dayMs / DAY) * DAY;
  const lit = (ms) => new Date(ms).toISOString().slice(0, 10) + ' 00:00:00+00';
  await db.query(`CREATE TABLE IF NOT EXISTS ${partitionOf('bench_rows', from)} PARTITION OF bench_rows FOR VALUES FROM ('${lit(from)}') TO ('${lit(from + DAY)}')`);
}

/** `psql \copy bench_rows (ts, tag, src, data) FROM STDIN` of a COPY file (its day partition made first); answers seconds. */
async function copyRows(dbUrl, db, dayMs, file) {
  await rowsPartition(db, dayMs);
  const t = performance.now();
  await psql(dbUrl, `\\copy bench_rows (ts, tag, src, data) FROM STDIN`, file);
  return (performance.now() - t) / 1000;
}

/**
 * Waits (up to `maxMs`) until the service's background compaction has nothing left to merge (no
 * tag, shard and day with two small blocks), so that it does not run under a measurement.
 */
async function settleCompaction(db, maxMs = 300_000) {
  const sql = `SELECT count(*)::int AS n FROM (SELECT 1 FROM block WHERE raw < ${state.codec.SMALL_BLOCK_BYTES} AND n < ${state.codec.SMALL_BLOCK_ENTRIES} GROUP BY tableoid, tag, shard HAVING count(*) > 1) g`;
  const deadline = Date.now() + maxMs;
  for (;;) {
    const left = (await db.query(sql)).rows[0].n;
    if (!left) return;
    if (Date.now() > deadline) {
      notes.push(`compaction still had ${left} group(s) of small blocks to merge after ${maxMs / 1000} s; measured anyway`);
      return;
    }
    await L.sleep(500);
  }
}

/** Entries the service stores per tag name in the day of `dayMs` (from the block rows' counts). */
async function blockCounts(db, dayMs) {
  const r = await db.query(`SELECT t.name, sum(b.n)::int AS n FROM block b JOIN tag t ON t.id = b.tag WHERE b.lo >= $1 AND b.lo < $2 GROUP BY 1`, [
    new Date(dayMs),
    new Date(dayMs + DAY),
  ]);
  return Object.fromEntries(r.rows.map((x) => [x.name, x.n]));
}

async function tagId(db, name) {
  await db.query('INSERT INTO tag (id, name) SELECT coalesce(max(id), 0) + 1, $1::text FROM tag ON CONFLICT (name) DO NOTHING', [name]);
  return (await db.query('SELECT id FROM tag WHERE name = $1', [name])).rows[0].id;
}

async function search(base, user, query, start, end) {
  const r = await L.ok(base, 'POST', '/api/search/direct', {
    headers: user,
    json: { SearchString: query, SearchStart: new Date(start).toISOString(), SearchEnd: new Date(end).toISOString(), Format: 'json' },
  });
  return r;
}
/** Best of `runs` wall times (ms) of `fn` (and their median, and all of them), and its last value. */
async function best(runs, fn) {
  let min = Infinity;
  let value;
  const all = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    value = await fn();
    const ms = performance.now() - t;
    all.push(ms);
    min = Math.min(min, ms);
  }
  return { ms: min, median: L.median(all), all, value };
}
const tableRows = (body) => (body.Rows ?? []).map((r) => r.Row);

module.exports = {
  ROOT,
  CFG,
  ONLY,
  DAY,
  TODAY,
  ADMIN_PASSWORD,
  JWT_SECRET,
  USER,
  rows,
  notes,
  log,
  row,
  fmt,
  state,
  psql,
  ingestSink,
  writeLines,
  scanSpec,
  loadRate,
  rowsPartition,
  partitionOf,
  copyRows,
  settleCompaction,
  blockCounts,
  tagId,
  search,
  best,
  tableRows,
};
