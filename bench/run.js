#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: builds the service privately, starts it on a fresh DATA_DIR against its own
 * embedded PostgreSQL, loads data and prints a markdown table of figures, each next to a baseline
 * measured in the same run, as a ratio. Writes bench/results/latest.md. See bench/README.md.
 * The sections live in bench/sections/; what they share in bench/context.js.
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { once } = require('node:events');
const L = require('./lib');
const { performance } = L;
const { ROOT, CFG, ONLY, ADMIN_PASSWORD, JWT_SECRET, USER, rows, notes, log, row, fmt, state } = require('./context');
const { apiSection } = require('./sections/api');
const { ingestSection } = require('./sections/ingest');
const { scanSection } = require('./sections/scan');
const { scaleSection } = require('./sections/scale');
const { loginSection } = require('./sections/login');
const { consoleSection, prepareConsole } = require('./console');
const { cardinalitySection } = require('./sections/cardinality');
const { scaleoutSection } = require('./sections/scaleout');
const { importsSection } = require('./sections/imports');

// ---------------------------------------------------------------- setup

function build(tmp) {
  if (process.env.BENCH_PREBUILT) return path.resolve(process.env.BENCH_PREBUILT);
  const out = path.join(tmp, 'build');
  log('building the service (tsc -p tsconfig.build.json) into a temp dir');
  try {
    execFileSync(
      process.execPath,
      [
        require.resolve('typescript/bin/tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        path.join(out, 'dist'),
        '--incremental',
        'false',
        '--tsBuildInfoFile',
        'null',
        '--sourceMap',
        'false',
      ],
      { cwd: ROOT, stdio: 'pipe' },
    );
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

/**
 * Starts the built service (`dist/main.js`) on `port` with its main database `dbUrl` and its own
 * `dataDir`; `env` adds variables (INDEXER_URLS for section 9). `output()`: its last 20 kB of logs.
 */
function startService(buildDir, tmp, { dbUrl, dataDir, port, env = {} }) {
  const svc = spawn(process.execPath, [path.join(buildDir, 'dist', 'main.js')], {
    cwd: buildDir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? tmp,
      DATABASE_URL: dbUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD,
      JWT_SECRET,
      BCRYPT_ROUNDS: String(CFG.bcryptRounds),
      LOG_LEVEL: 'warn',
      RETENTION_DAYS: '3650',
      DB_STATEMENT_TIMEOUT_MS: '600000',
      SEARCH_TIMEOUT_MS: '1800000',
      MAX_SEARCHES_PER_USER: '64',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  svc.stdout.on('data', (d) => (out = (out + d).slice(-20000)));
  svc.stderr.on('data', (d) => (out = (out + d).slice(-20000)));
  svc.output = () => out;
  return svc;
}

async function stopService(svc) {
  if (svc.exitCode === null && svc.signalCode === null) {
    svc.kill('SIGTERM');
    await once(svc, 'exit');
  }
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
    prepareConsole(buildDir);
    const { startEmbeddedPostgres, freePort } = require(path.join(buildDir, 'dist', 'database', 'embedded-postgres.js'));
    const { ensureDatabase } = require(path.join(buildDir, 'dist', 'database', 'ensure-database.js'));
    try {
      const { BLOCK_TARGET_BYTES, SMALL_BLOCK_BYTES, SMALL_BLOCK_ENTRIES } = require(path.join(buildDir, 'dist', 'indexer', 'block-codec.js'));
      if (!(BLOCK_TARGET_BYTES > 0 && SMALL_BLOCK_BYTES > 0 && SMALL_BLOCK_ENTRIES > 0)) throw new Error('no BLOCK_TARGET_BYTES, SMALL_BLOCK_BYTES, SMALL_BLOCK_ENTRIES');
      state.codec = { BLOCK_TARGET_BYTES, SMALL_BLOCK_BYTES, SMALL_BLOCK_ENTRIES };
    } catch (err) {
      log(`block sizes of the build unknown (${err.message.split('\n')[0]}); assuming ${state.codec.BLOCK_TARGET_BYTES} and ${state.codec.SMALL_BLOCK_BYTES}`);
    }
    const { Client } = require(path.join(ROOT, 'node_modules', 'pg'));
    log('starting embedded PostgreSQL');
    const pg = await startEmbeddedPostgres({ dir: path.join(tmp, 'pg') });
    cleanup.push(() => pg.stop());
    const dbUrl = await ensureDatabase(pg.url, 'search');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const svc = startService(buildDir, tmp, { dbUrl, dataDir: path.join(tmp, 'data'), port });
    cleanup.push(() => stopService(svc));
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
      await L.ok(base, 'POST', '/api/dashboards', {
        headers: user,
        json: {
          Name: `dash ${i}`,
          Description: 'bench dashboard',
          Data: { tiles: Array.from({ length: 6 }, (_, k) => ({ id: k, query: `tag=app grep error${k} | count`, w: 4, h: 3 })) },
        },
      });
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
    if (ONLY.includes('console') || !process.env.BENCH_SECTIONS) await consoleSection({ base, user });
    if (ONLY.includes('imports')) await importsSection({ base, user, rss });
    rss.stop();
    if (ONLY.includes('cardinality')) await cardinalitySection({ base, dbUrl, db, tmp, user, svcPid: svc.pid });
    if (ONLY.includes('scaleout')) {
      const start = (opts) => startService(buildDir, tmp, opts);
      await scaleoutSection({ base, db, tmp, user, adminUrl: pg.url, ensureDatabase, freePort, startService: start, stopService, waitHttp, cleanup });
    }

    const report = render(L.machine(pgVersion), (performance.now() - t0) / 1000);
    process.stdout.write(report);
    fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'results', 'latest.md'), report);
    log('written bench/results/latest.md');
    if (svc.exitCode !== null) throw new Error(`service died:\n${svc.output()}`);
  } finally {
    for (const f of cleanup.reverse())
      await Promise.resolve()
        .then(f)
        .catch((e) => log(`cleanup: ${e.message}`));
    if (!process.env.BENCH_KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- report

function render(m, seconds) {
  const lines = [];
  lines.push('# Benchmark results', '');
  lines.push(`Run ${new Date().toISOString()}, ${seconds.toFixed(0)} s. \`npm run bench\` (bench/README.md).`, '');
  lines.push('| machine | |', '|---|---|');
  for (const [k, v] of Object.entries(m)) lines.push(`| ${k} | ${v} |`);
  lines.push(
    '',
    `Sizes: ${Object.entries(CFG)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}`,
    '',
  );
  lines.push('Ratio = service / baseline; "better" says which direction is good (flat: should stay near 1).', '');
  lines.push('| section | figure | service | baseline | baseline value | ratio | better |', '|---|---|---:|---|---:|---:|---|');
  const cell = (t) => String(t).replace(/\|/g, '\\|');
  for (const r of rows)
    lines.push(`| ${cell(r.section)} | ${cell(r.figure)} | ${fmt(r.value)} ${r.unit} | ${r.baselineName} | ${fmt(r.baseline)} ${r.unit} | ${fmt(r.ratio)} | ${r.better} |`);
  if (notes.length) lines.push('', '## Notes', '', ...notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

main().catch((err) => {
  log(err.stack ?? String(err));
  process.exit(1);
});
