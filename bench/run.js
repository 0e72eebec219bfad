#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: builds the service privately, starts it on a fresh DATA_DIR against its own
 * embedded PostgreSQL, loads data and prints a markdown table of figures, each next to a baseline
 * measured in the same run, as a ratio. Writes bench/results/latest.md. See bench/README.md.
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { once } = require('node:events');
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
  scaleRuns: env('BENCH_SCALE_RUNS', 5),
  mixedSeconds: env('BENCH_MIXED_SECONDS', 15),
  loginSeconds: env('BENCH_LOGIN_SECONDS', 10),
  loginConnections: env('BENCH_LOGIN_CONNECTIONS', 8),
  bcryptRounds: env('BENCH_BCRYPT_ROUNDS', 12),
};
const ONLY = (process.env.BENCH_SECTIONS || 'api,ingest,scan,scale,login').split(',');
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

// ---------------------------------------------------------------- setup

function build(tmp) {
  if (process.env.BENCH_PREBUILT) return path.resolve(process.env.BENCH_PREBUILT);
  const out = path.join(tmp, 'build');
  log('building the service (tsc -p tsconfig.build.json) into a temp dir');
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', path.join(out, 'dist'), '--incremental', 'false', '--tsBuildInfoFile', 'null', '--sourceMap', 'false'], { cwd: ROOT, stdio: 'pipe' });
  } catch (err) {
    if (!fs.existsSync(path.join(out, 'dist', 'main.js'))) throw new Error(`build failed:\n${err.stdout ?? err}`);
    log('tsc reported errors; running the emitted build anyway');
  }
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(out, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  return out;
}

async function waitHttp(base, child, what) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const r = await L.request(base, 'GET', '/api/test', { timeoutMs: 2000 });
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    await L.sleep(100);
  }
  throw new Error(`${what} did not start`);
}

function psql(url, command, stdinFile) {
  const args = [url, '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-c', command];
  return new Promise((resolve, reject) => {
    const child = spawn('psql', args, { stdio: [stdinFile ? fs.openSync(stdinFile, 'r') : 'ignore', 'pipe', 'pipe'] });
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
  await once(copy, 'finish');
  if (plain) await once(plain, 'finish');
  return { count, bytes };
}

// ---------------------------------------------------------------- main

async function main() {
  const tmp = fs.mkdtempSync(path.join(process.env.BENCH_TMP || os.tmpdir(), 'search-bench-'));
  // Run as root, the embedded PostgreSQL runs as `postgres`, which must traverse the directory.
  fs.chmodSync(tmp, 0o711);
  const cleanup = [];
  const t0 = performance.now();
  try {
    const buildDir = build(tmp);
    const { startEmbeddedPostgres, freePort } = require(path.join(buildDir, 'dist', 'database', 'embedded-postgres.js'));
    const { ensureDatabase } = require(path.join(buildDir, 'dist', 'database', 'ensure-database.js'));
    schema = require(path.join(buildDir, 'dist', 'indexer', 'indexer.schema.js'));
    const { Client } = require(path.join(ROOT, 'node_modules', 'pg'));
    log('starting embedded PostgreSQL');
    const pg = await startEmbeddedPostgres({ dir: path.join(tmp, 'pg') });
    cleanup.push(() => pg.stop());
    const dbUrl = await ensureDatabase(pg.url, 'search');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const svc = spawn(process.execPath, [path.join(buildDir, 'dist', 'main.js')], {
      cwd: buildDir,
      env: {
        PATH: process.env.PATH, HOME: process.env.HOME ?? tmp, DATABASE_URL: dbUrl, DATA_DIR: path.join(tmp, 'data'), PORT: String(port), HOST: '127.0.0.1',
        ADMIN_PASSWORD, JWT_SECRET, BCRYPT_ROUNDS: String(CFG.bcryptRounds), LOG_LEVEL: 'warn', RETENTION_DAYS: '3650',
        DB_STATEMENT_TIMEOUT_MS: '600000', SEARCH_TIMEOUT_MS: '1800000', MAX_SEARCHES_PER_USER: '64',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let svcOut = '';
    svc.stdout.on('data', (d) => (svcOut = (svcOut + d).slice(-20000)));
    svc.stderr.on('data', (d) => (svcOut = (svcOut + d).slice(-20000)));
    cleanup.push(async () => {
      if (svc.exitCode === null) {
        svc.kill('SIGTERM');
        await once(svc, 'exit');
      }
    });
    await waitHttp(base, svc, 'service');
    const db = new Client({ connectionString: dbUrl });
    await db.connect();
    cleanup.push(() => db.end());
    const pgVersion = (await db.query('SHOW server_version')).rows[0].server_version;
    const rss = L.rssSampler(svc.pid);
    log(`service pid ${svc.pid} on ${base}; PostgreSQL ${pgVersion}`);

    // Accounts: a plain user with dashboards, a JWT, and tokens.
    const adminJwt = (await L.ok(base, 'POST', '/api/login', { json: { User: 'admin', Pass: ADMIN_PASSWORD } })).body.JWT;
    const admin = { Authorization: `Bearer ${adminJwt}` };
    await L.ok(base, 'POST', '/api/users', { headers: admin, json: USER });
    const jwt = (await L.ok(base, 'POST', '/api/login', { json: { User: USER.User, Pass: USER.Pass } })).body.JWT;
    const user = { Authorization: `Bearer ${jwt}` };
    const tokenOf = async (caps) => (await L.ok(base, 'POST', '/api/tokens', { headers: user, json: { name: `bench-${caps.join('-')}`, capabilities: caps } })).body.token;
    const readToken = await tokenOf(['DashboardRead']);
    const ingestToken = await tokenOf(['Ingest']);
    for (let i = 0; i < 20; i++) {
      await L.ok(base, 'POST', '/api/dashboards', { headers: user, json: { Name: `dash ${i}`, Description: 'bench dashboard', Data: { tiles: Array.from({ length: 6 }, (_, k) => ({ id: k, query: `tag=app grep error${k} | count`, w: 4, h: 3 })) } } });
    }
    const idleRss = rss.now();

    if (ONLY.includes('api')) await apiSection({ base, dbUrl, user, readToken, cleanup, freePort });
    const loadFrom = performance.now();
    if (ONLY.includes('ingest')) await ingestSection({ base, dbUrl, db, tmp, user, ingestToken });
    if (ONLY.includes('scan')) await scanSection({ base, dbUrl, db, tmp, user });
    if (ONLY.includes('scale')) await scaleSection({ base, dbUrl, db, tmp, user });
    const loadTo = performance.now();
    row('5 memory', 'peak RSS of the service during 2-4', rss.peak(loadFrom, loadTo), 'MiB', 'RSS idle after start', idleRss, 'lower');
    if (ONLY.includes('login')) await loginSection({ base, user });
    rss.stop();

    const report = render(L.machine(pgVersion), (performance.now() - t0) / 1000);
    process.stdout.write(report);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', 'latest.md'), report);
    log('written bench/results/latest.md');
    if (svc.exitCode !== null) throw new Error(`service died:\n${svcOut}`);
  } finally {
    for (const f of cleanup.reverse()) await Promise.resolve().then(f).catch((e) => log(`cleanup: ${e.message}`));
    if (!process.env.BENCH_KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- 1. API

async function apiSection({ base, dbUrl, user, readToken, cleanup, freePort }) {
  log('1. API throughput: service vs bare node:http baseline');
  const bport = await freePort();
  const bl = spawn(process.execPath, [path.join(__dirname, 'baseline-server.js')], { env: { ...process.env, DATABASE_URL: dbUrl, JWT_SECRET, PORT: String(bport) }, stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.push(async () => {
    if (bl.exitCode === null) {
      bl.kill('SIGTERM');
      await once(bl, 'exit');
    }
  });
  await new Promise((resolve, reject) => {
    bl.stdout.on('data', (d) => String(d).includes('listening') && resolve());
    bl.on('exit', (c) => reject(new Error(`baseline server exited ${c}`)));
  });
  const bbase = `http://127.0.0.1:${bport}`;
  const tokenH = { 'Service-Token': readToken };
  // Same answer from both (sanity), then warm both up.
  const a = await L.ok(base, 'GET', '/api/dashboards', { headers: user });
  const b = await L.ok(bbase, 'GET', '/api/dashboards', { headers: user });
  if (a.body.length !== b.body.length) throw new Error(`baseline answers ${b.body.length} dashboards, service ${a.body.length}`);
  const opts = { connections: CFG.apiConnections, seconds: CFG.apiSeconds };
  for (const [name, h] of [['JWT', user], ['Service-Token', tokenH]]) {
    await L.load(`${base}/api/dashboards`, { headers: h, connections: 4, seconds: 2 });
    await L.load(`${bbase}/api/dashboards`, { headers: h, connections: 4, seconds: 2 });
    const s = await L.load(`${base}/api/dashboards`, { headers: h, ...opts });
    const r = await L.load(`${bbase}/api/dashboards`, { headers: h, ...opts });
    if (s.errors || r.errors) notes.push(`API ${name}: ${s.errors} service errors, ${r.errors} baseline errors`);
    const g = `1 API (${name}, ${opts.connections} conns, ${s.tool})`;
    row(g, 'GET /api/dashboards req/s', s.rps, 'req/s', 'bare node:http + pg', r.rps, 'higher');
    row(g, 'p50 latency', s.p50, 'ms', 'bare node:http + pg', r.p50, 'lower');
    row(g, 'p99 latency', s.p99, 'ms', 'bare node:http + pg', r.p99, 'lower');
  }
  bl.kill('SIGTERM');
  await once(bl, 'exit');
}

// ---------------------------------------------------------------- 2. ingest

let schema;
/** Creates the day partition of `dayMs` the way the service does (for rows loaded with COPY). */
async function ensurePartition(db, dayMs) {
  await db.query(schema.createPartitionSql(Math.floor(dayMs / DAY)));
}

async function tagId(db, name) {
  await db.query('INSERT INTO tag (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
  return (await db.query('SELECT id FROM tag WHERE name = $1', [name])).rows[0].id;
}

/** Runs `bodies` through `send` with `concurrency` in flight; returns seconds. */
async function pump(bodies, concurrency, send) {
  let i = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (i < bodies.length) await send(bodies[i++]);
  }));
  return (performance.now() - t0) / 1000;
}

async function ingestSection({ base, dbUrl, db, tmp, user, ingestToken }) {
  const n = CFG.ingestEntries;
  log(`2. ingest: ${n} entries in batches of ${CFG.batch}, ${CFG.ingestConcurrency} in flight`);
  const day = TODAY - 45 * DAY;
  // The same rows for the three paths (own tags, same day partition).
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
  // Warm the partition and tag caches outside the timing.
  await L.ok(base, 'PUT', '/api/ingest/json', { headers: user, body: jsonBodies[0].slice(0, jsonBodies[0].indexOf('},') + 1) + ']' });

  const jsonSecs = await pump(jsonBodies, CFG.ingestConcurrency, (body) => L.ok(base, 'PUT', '/api/ingest/json', { headers: { ...user, 'Content-Type': 'application/json' }, body }));
  const hecSecs = await pump(hecBodies, CFG.ingestConcurrency, (body) => L.ok(base, 'POST', '/services/collector/event', { headers: { Authorization: `Splunk ${ingestToken}` }, body }));
  const t = performance.now();
  await psql(dbUrl, `\\copy entry (ts, tag, src, data) FROM STDIN`, copyFile);
  const copySecs = (performance.now() - t) / 1000;
  const counted = (await db.query(`SELECT t.name, count(*)::int AS n FROM entry e JOIN tag t ON t.id = e.tag WHERE e.ts >= $1 AND e.ts < $2 GROUP BY 1`, [new Date(day), new Date(day + DAY)])).rows;
  const got = Object.fromEntries(counted.map((r) => [r.name, r.n]));
  if (got.ingestjson !== n + 1 || got.ingesthec !== n || got.ingestcopy !== n) notes.push(`ingest counts differ: ${JSON.stringify(got)} (expected ${n}, +1 warm-up json)`);
  const mb = bytes / 2 ** 20;
  const g = `2 ingest (${n} entries, ${(bytes / n).toFixed(0)} B each, batches of ${CFG.batch} x${CFG.ingestConcurrency})`;
  row(g, 'PUT /api/ingest/json entries/s', n / jsonSecs, 'entries/s', 'psql \\copy (COPY FROM STDIN)', n / copySecs, 'higher');
  row(g, 'PUT /api/ingest/json MB/s (raw data)', mb / jsonSecs, 'MiB/s', 'psql \\copy', mb / copySecs, 'higher');
  row(g, 'HEC /services/collector/event entries/s', n / hecSecs, 'entries/s', 'psql \\copy', n / copySecs, 'higher');
  row(g, 'HEC MB/s (raw data)', mb / hecSecs, 'MiB/s', 'psql \\copy', mb / copySecs, 'higher');
  fs.rmSync(copyFile, { force: true });
}

// ---------------------------------------------------------------- 3. scan

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

function countLines(cmd, file) {
  const t = performance.now();
  const out = execFileSync(cmd, ['-c', '-F', L.NEEDLE, file], { encoding: 'utf8', maxBuffer: 1 << 20 }).trim();
  return { ms: performance.now() - t, count: Number(out) };
}

async function scanSection({ base, dbUrl, db, tmp, user }) {
  const target = CFG.scanMb * 2 ** 20;
  const day = TODAY - 40 * DAY;
  log(`3. scan: generating ${CFG.scanMb} MiB of log lines`);
  const scanTag = await tagId(db, 'scan');
  const copyFile = path.join(tmp, 'scan.copy');
  const logFile = path.join(tmp, 'scan.log');
  const approx = Math.ceil(target / 180);
  await ensurePartition(db, day);
  const { count, bytes } = await writeLines({ seed: 3, n: approx * 2, fromMs: day, toMs: day + DAY / 2, tag: scanTag, copyFile, logFile, maxBytes: target });
  log(`3. scan: loading ${count} lines (${(bytes / 2 ** 20).toFixed(0)} MiB) with COPY, then VACUUM ANALYZE`);
  await psql(dbUrl, `\\copy entry (ts, tag, src, data) FROM STDIN`, copyFile);
  fs.rmSync(copyFile, { force: true });
  await db.query('VACUUM ANALYZE entry');
  const fileBytes = fs.statSync(logFile).size;
  const start = day;
  const end = day + DAY;
  const gb = fileBytes / 1e9;
  const g = `3 scan (${count} lines, ${(fileBytes / 2 ** 20).toFixed(0)} MiB, best of ${CFG.scanRuns})`;

  const q = `tag=scan grep "${L.NEEDLE}" | count | table`;
  const svc = await best(CFG.scanRuns, () => search(base, user, q, start, end));
  const svcCount = Number(tableRows(svc.value.body)[0]?.[0]);
  const gr = await best(CFG.scanRuns, async () => countLines('grep', logFile));
  if (gr.value.count !== svcCount) notes.push(`grep count mismatch: service ${svcCount}, grep -c ${gr.value.count}`);
  row(g, `\`${q}\` time`, svc.ms / 1000, 's', 'grep -c -F (file)', gr.ms / 1000, 'lower');
  row(g, 'same, GB/s', gb / (svc.ms / 1000), 'GB/s', 'grep -c -F (file)', gb / (gr.ms / 1000), 'higher');
  if (L.which('rg')) {
    const rg = await best(CFG.scanRuns, async () => countLines('rg', logFile));
    if (rg.value.count !== svcCount) notes.push(`rg count mismatch: service ${svcCount}, rg -c ${rg.value.count}`);
    row(g, 'same, GB/s', gb / (svc.ms / 1000), 'GB/s', 'rg -c -F (file)', gb / (rg.ms / 1000), 'higher');
  } else notes.push('rg is not installed: the rg -c baseline was skipped (apt-get install ripgrep)');
  const sqlGrep = await best(CFG.scanRuns, () => db.query(`SELECT count(*)::int AS n FROM entry WHERE tag = $1 AND ts >= $2 AND ts < $3 AND position($4::bytea IN data) > 0`, [scanTag, new Date(start), new Date(end), Buffer.from(L.NEEDLE)]));
  row(g, 'same, time', svc.ms / 1000, 's', 'hand-written SQL count(*) with position()', sqlGrep.ms / 1000, 'lower');

  const qa = 'tag=scan kv status | count by status | table';
  log(`3. scan: aggregation ${qa}`);
  const agg = await best(CFG.scanRuns, () => search(base, user, qa, start, end));
  const sqlAgg = await best(CFG.scanRuns, () =>
    db.query(`SELECT substring(convert_from(data, 'UTF8') FROM ' status=([^ ]*)') AS status, count(*)::int AS n FROM entry WHERE tag = $1 AND ts >= $2 AND ts < $3 GROUP BY 1`, [scanTag, new Date(start), new Date(end)]),
  );
  const svcMap = Object.fromEntries(tableRows(agg.value.body).map((r) => [r[0], Number(r[1])]));
  const sqlMap = Object.fromEntries(sqlAgg.value.rows.map((r) => [r.status, r.n]));
  if (JSON.stringify(Object.entries(svcMap).sort()) !== JSON.stringify(Object.entries(sqlMap).sort())) notes.push(`aggregation results differ: service ${JSON.stringify(svcMap)} vs SQL ${JSON.stringify(sqlMap)}`);
  row(g, `\`${qa}\` time`, agg.ms / 1000, 's', 'hand-written SQL GROUP BY substring()', sqlAgg.ms / 1000, 'lower');
  row(g, 'same, GB/s', gb / (agg.ms / 1000), 'GB/s', 'hand-written SQL', gb / (sqlAgg.ms / 1000), 'higher');
  fs.rmSync(logFile, { force: true });
}

// ---------------------------------------------------------------- 4. scale

async function scaleSection({ base, dbUrl, db, tmp, user }) {
  const tag = await tagId(db, 'scale');
  const copyFile = path.join(tmp, 'scale.copy');
  const loadDays = async (from, to) => {
    for (let d = from; d <= to; d++) {
      const dayMs = TODAY - d * DAY;
      await ensurePartition(db, dayMs);
      await writeLines({ seed: 100 + d, n: CFG.scalePerDay, fromMs: dayMs, toMs: dayMs + DAY, tag, copyFile });
      await psql(dbUrl, `\\copy entry (ts, tag, src, data) FROM STDIN`, copyFile);
    }
    await db.query('VACUUM ANALYZE entry');
  };
  // The hour 12:00-13:00 of yesterday.
  const hs = TODAY - DAY + 12 * 3_600_000;
  const he = hs + 3_600_000;
  const q = 'tag=scale count | table';
  const measure = async () => {
    await search(base, user, q, hs, he);
    const r = await best(CFG.scaleRuns, () => search(base, user, q, hs, he));
    return { ms: r.median, count: Number(tableRows(r.value.body)[0]?.[0]) };
  };
  log(`4. scale: ${CFG.scalePerDay} entries/day; one-hour query over 1, 7, 30 days`);
  await loadDays(1, 1);
  const one = await measure();
  await loadDays(2, 7);
  const seven = await measure();
  await loadDays(8, 30);
  const thirty = await measure();
  if (one.count !== seven.count || one.count !== thirty.count) notes.push(`scale: one-hour counts differ ${one.count}/${seven.count}/${thirty.count}`);
  fs.rmSync(copyFile, { force: true });
  const g = `4 scale (\`${q}\` over one hour, ${CFG.scalePerDay} entries/day, median of ${CFG.scaleRuns})`;
  row(g, 'query time with 7 days stored', seven.ms, 'ms', 'same query with 1 day stored', one.ms, 'flat');
  row(g, 'query time with 30 days stored', thirty.ms, 'ms', 'same query with 1 day stored', one.ms, 'flat');

  // Searches while ingest runs (current time, its own tag).
  log(`4. scale: searches while ingest runs (${CFG.mixedSeconds} s)`);
  const next = L.lineGenerator(9);
  let stop = false;
  let ingested = 0;
  const batchBody = () => JSON.stringify(Array.from({ length: CFG.batch }, () => {
    const ts = Date.now();
    return { TS: new Date(ts).toISOString(), Tag: 'live', Data: Buffer.from(next(ts)).toString('base64') };
  }));
  const bodies = Array.from({ length: 8 }, batchBody);
  const ingestLoop = async () => {
    let k = 0;
    while (!stop) {
      await L.ok(base, 'PUT', '/api/ingest/json', { headers: user, body: bodies[k++ % bodies.length] });
      ingested += CFG.batch;
    }
  };
  const t = performance.now();
  const loops = Array.from({ length: 2 }, ingestLoop);
  const lat = [];
  while (performance.now() - t < CFG.mixedSeconds * 1000) lat.push((await search(base, user, q, hs, he)).ms);
  stop = true;
  await Promise.all(loops);
  const secs = (performance.now() - t) / 1000;
  row(g, `search median while ingesting (${Math.round(ingested / secs)} entries/s)`, L.median(lat), 'ms', 'same search, idle (30 days)', thirty.ms, 'lower');
}

// ---------------------------------------------------------------- 6. login

async function loginSection({ base, user }) {
  log(`6. login storm: ${CFG.loginConnections} connections for ${CFG.loginSeconds} s, bcrypt cost ${CFG.bcryptRounds}`);
  const light = (seconds) => L.load(`${base}/api/info/whoami`, { headers: user, connections: 2, seconds, threads: 1 });
  const quiet = await light(CFG.loginSeconds);
  const [storm, busy] = await Promise.all([
    L.load(`${base}/api/login`, { method: 'POST', body: JSON.stringify({ User: USER.User, Pass: USER.Pass }), connections: CFG.loginConnections, seconds: CFG.loginSeconds, threads: 1 }),
    L.sleep(500).then(() => light(CFG.loginSeconds - 1)),
  ]);
  if (storm.errors) notes.push(`login storm: ${storm.errors} non-2xx answers`);
  // Baseline: bcrypt.compare throughput of a bare node process at the same cost and concurrency.
  const script = `const b=require('bcrypt');const h=b.hashSync('${USER.Pass}',${CFG.bcryptRounds});let n=0;const end=Date.now()+${CFG.loginSeconds * 1000};` +
    `const w=async()=>{while(Date.now()<end){await b.compare('${USER.Pass}',h);n++}};Promise.all(Array.from({length:${CFG.loginConnections}},w)).then(()=>console.log(n/${CFG.loginSeconds}))`;
  const bare = Number(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' }).trim());
  const g = `6 login (bcrypt cost ${CFG.bcryptRounds}, ${CFG.loginConnections} conns)`;
  row(g, 'POST /api/login logins/s', storm.rps, 'logins/s', 'bare bcrypt.compare/s in node', bare, 'higher');
  row(g, 'GET /api/info/whoami p99 during the storm', busy.p99, 'ms', 'same request without the storm', quiet.p99, 'lower');
  row(g, 'GET /api/info/whoami req/s during the storm', busy.rps, 'req/s', 'same request without the storm', quiet.rps, 'higher');
}

// ---------------------------------------------------------------- report

function render(m, seconds) {
  const lines = [];
  lines.push('# Benchmark results', '');
  lines.push(`Run ${new Date().toISOString()}, ${seconds.toFixed(0)} s. \`npm run bench\` (bench/README.md).`, '');
  lines.push('| machine | |', '|---|---|');
  for (const [k, v] of Object.entries(m)) lines.push(`| ${k} | ${v} |`);
  lines.push('', `Sizes: ${Object.entries(CFG).map(([k, v]) => `${k}=${v}`).join(', ')}`, '');
  lines.push('Ratio = service / baseline; "better" says which direction is good (flat: should stay near 1).', '');
  lines.push('| section | figure | service | baseline | baseline value | ratio | better |', '|---|---|---:|---|---:|---:|---|');
  const cell = (t) => String(t).replace(/\|/g, '\\|');
  for (const r of rows) lines.push(`| ${cell(r.section)} | ${cell(r.figure)} | ${fmt(r.value)} ${r.unit} | ${r.baselineName} | ${fmt(r.baseline)} ${r.unit} | ${fmt(r.ratio)} | ${r.better} |`);
  if (notes.length) lines.push('', '## Notes', '', ...notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

main().catch((err) => {
  log(err.stack ?? String(err));
  process.exit(1);
});
