'use strict';
/** Section 1: GET /api/dashboards with a JWT and a Service-Token against a bare node:http server doing the same work. */
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const path = require('node:path');
const L = require('../lib');
const { CFG, JWT_SECRET, log, notes, row } = require('../context');

async function apiSection({ base, dbUrl, user, readToken, cleanup, freePort }) {
  log('1. API throughput: service vs bare node:http baseline');
  const bport = await freePort();
  const bl = spawn(process.execPath, [path.join(__dirname, '..', 'baseline-server.js')], { env: { ...process.env, DATABASE_URL: dbUrl, JWT_SECRET, PORT: String(bport) }, stdio: ['ignore', 'pipe', 'inherit'] });
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

module.exports = { apiSection };
