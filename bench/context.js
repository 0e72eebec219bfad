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
};
const ONLY = (process.env.BENCH_SECTIONS || 'api,ingest,scan,scale,login,cardinality').split(',');
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

/** Set by run.js once the service is built: the build's indexer schema helpers. */
const state = { schema: undefined };

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

/** Writes `n` generated lines with timestamps in [fromMs, toMs) to a COPY text file (and optionally a plain log file). */
async function writeLines({ seed, n, fromMs, toMs, tag, copyFile, logFile, maxBytes }) {
  const next = L.lineGenerator(seed);
  const copy = fs.createWriteStream(copyFile, { highWaterMark: 1 << 20 });
  const plain = logFile ? fs.createWriteStream(logFile, { highWaterMark: 1 << 20 }) : undefined;
  const step = (toMs - fromMs) / n;
  let bytes = 0;
  let count = 0;
  let cbuf = [];
  let pbuf = [];
  const flush = async () => {
    if (!copy.write(cbuf.join(''))) await once(copy, 'drain');
    if (plain && !plain.write(pbuf.join(''))) await once(plain, 'drain');
    cbuf = [];
    pbuf = [];
  };
  for (let i = 0; i < n && (!maxBytes || bytes < maxBytes); i++) {
    const ts = fromMs + Math.floor(i * step);
    const line = next(ts);
    bytes += Buffer.byteLength(line);
    count++;
    cbuf.push(`${new Date(ts).toISOString()}\t${tag}\t127.0.0.1\t${line}\n`);
    if (plain) pbuf.push(line + '\n');
    if (cbuf.length >= 5000) await flush();
  }
  await flush();
  copy.end();
  plain?.end();
  // finished() also resolves for a stream that has already finished (awaiting its 'finish' event
  // one stream after the other could miss the second one's and hang).
  await Promise.all([finished(copy), plain && finished(plain)]);
  return { count, bytes };
}

/** Creates the day partition of `dayMs` the way the service does (for rows loaded with COPY). */
async function ensurePartition(db, dayMs) {
  await db.query(state.schema.createPartitionSql(Math.floor(dayMs / DAY)));
}

async function tagId(db, name) {
  await db.query('INSERT INTO tag (id, name) SELECT coalesce(max(id), 0) + 1, $1::text FROM tag ON CONFLICT (name) DO NOTHING', [name]);
  return (await db.query('SELECT id FROM tag WHERE name = $1', [name])).rows[0].id;
}

async function search(base, user, query, start, end) {
  const r = await L.ok(base, 'POST', '/api/search/direct', { headers: user, json: { SearchString: query, SearchStart: new Date(start).toISOString(), SearchEnd: new Date(end).toISOString(), Format: 'json' } });
  return r;
}
/** Best of `runs` wall times (ms) of `fn`, and its last value. */
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
  return { ms: min, median: L.median(all), value };
}
const tableRows = (body) => (body.Rows ?? []).map((r) => r.Row);

module.exports = {
  ROOT, CFG, ONLY, DAY, TODAY, ADMIN_PASSWORD, JWT_SECRET, USER,
  rows, notes, log, row, fmt, state,
  psql, writeLines, ensurePartition, tagId, search, best, tableRows,
};
