'use strict';
/** Helpers of the benchmark: HTTP, load generation (wrk, else a keep-alive node loop), data, machine. */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const { performance } = require('node:perf_hooks');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request; resolves `{status, text, body, ms}`. */
function request(base, method, path, { headers = {}, json, body, timeoutMs = 600000 } = {}) {
  const h = { ...headers };
  let payload = body;
  if (json !== undefined) {
    payload = JSON.stringify(json);
    h['Content-Type'] = 'application/json';
  }
  if (payload !== undefined) h['Content-Length'] = Buffer.byteLength(payload);
  const url = new URL(path, base);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: h, agent, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, text, body: parsed, ms: performance.now() - t0 });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)));
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Like request, but throws unless the status is 2xx. */
async function ok(base, method, path, opts) {
  const r = await request(base, method, path, opts);
  if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 500)}`);
  return r;
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
const median = (xs) =>
  pct(
    [...xs].sort((a, b) => a - b),
    50,
  );

function which(cmd) {
  try {
    return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** wrk's "1.23ms" / "2.5s" / "800us" -> ms. */
function wrkMs(s) {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(s);
  if (!m) return NaN;
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[m[2]];
}

/**
 * Closed-loop load for `seconds`: `{rps, p50, p99, errors, n}`. Uses wrk (with a Lua script for
 * the method/body) when installed, else a keep-alive loop in this process.
 */
async function load(url, { method = 'GET', headers = {}, body, connections = 16, seconds = 10, threads = 2, forceNode = false }) {
  if (!forceNode && which('wrk')) return wrkLoad(url, { method, headers, body, connections, seconds, threads });
  return nodeLoad(url, { method, headers, body, connections, seconds });
}

function wrkLoad(url, { method, headers, body, connections, seconds, threads }) {
  const lua = `${os.tmpdir()}/bench-wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`;
  const lines = [`wrk.method = ${JSON.stringify(method)}`];
  if (body !== undefined) lines.push(`wrk.body = ${JSON.stringify(body)}`);
  const hs = { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) };
  for (const [k, v] of Object.entries(hs)) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  // Count non-2xx answers as errors.
  lines.push('local bad = 0', 'response = function(status) if status < 200 or status > 299 then bad = bad + 1 end end');
  lines.push('done = function(summary, latency, requests) io.write("BAD " .. bad .. "\\n") end');
  fs.writeFileSync(lua, lines.join('\n') + '\n');
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', ['-t', String(Math.min(threads, connections)), '-c', String(connections), '-d', `${seconds}s`, '--latency', '--timeout', '30s', '-s', lua, url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      fs.rmSync(lua, { force: true });
      if (code !== 0) return reject(new Error(`wrk exited ${code}: ${out}`));
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      const p50 = wrkMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? '');
      const p99 = wrkMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '');
      const n = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
      const sockErr = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      const errors = Number(/BAD (\d+)/.exec(out)?.[1] ?? 0) + (sockErr ? sockErr.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
      resolve({ rps, p50, p99, errors, n, tool: 'wrk' });
    });
  });
}

async function nodeLoad(url, { method, headers, body, connections, seconds }) {
  const u = new URL(url);
  const lat = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const worker = async () => {
    while (performance.now() < end) {
      try {
        const r = await request(u.origin, method, u.pathname + u.search, { headers, ...(body !== undefined ? { json: JSON.parse(body) } : {}) });
        if (r.status < 200 || r.status > 299) errors++;
        lat.push(r.ms);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { rps: lat.length / secs, p50: pct(lat, 50), p99: pct(lat, 99), errors, n: lat.length, tool: 'node' };
}

/** Deterministic PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTS = Array.from({ length: 12 }, (_, i) => `web-${String(i + 1).padStart(2, '0')}`);
const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];
const PATHS = ['/api/v1/items', '/api/v1/users', '/api/v1/orders', '/static/app.js', '/login', '/api/v1/search', '/health'];
const STATUSES = [200, 200, 200, 200, 200, 200, 200, 201, 204, 301, 304, 400, 401, 403, 404, 404, 500, 502, 503];
const MSGS = ['request served', 'request served', 'request served', 'cache hit', 'cache miss', 'slow query', 'client closed connection'];
/** The needle of the grep benchmark: about 0.5% of lines carry it. */
const NEEDLE = 'upstream timeout';

/**
 * Deterministic, realistic log lines (key=value application logs, ~180 bytes; no tab, backslash
 * or newline, so they go into COPY text format as bytea unescaped). `next(tsMs)` -> string.
 */
function lineGenerator(seed) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  let req = Math.floor(r() * 2 ** 31);
  return (tsMs) => {
    const status = pick(STATUSES);
    const rare = r() < 0.005;
    const level = rare || status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO';
    const msg = rare ? NEEDLE : status >= 500 ? 'internal error' : pick(MSGS);
    req = (req * 1103515245 + 12345) >>> 0;
    return `${new Date(tsMs).toISOString()} ${pick(HOSTS)} app[${1000 + Math.floor(r() * 9000)}]: level=${level} method=${pick(METHODS)} path=${pick(PATHS)}/${Math.floor(r() * 5000)} status=${status} bytes=${Math.floor(r() * 60000)} dur_ms=${Math.floor(r() * r() * 2000)} user=u${String(Math.floor(r() * 5000)).padStart(4, '0')} req=${req.toString(16).padStart(8, '0')} msg="${msg}"`;
  };
}

/** Samples VmRSS (MiB) of a pid every `everyMs`; `peak(from, to)` over a window of performance.now() times. */
function rssSampler(pid, everyMs = 200) {
  const samples = [];
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) samples.push([performance.now(), Number(m[1]) / 1024]);
    } catch {
      /* gone */
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    now: () => (read(), samples[samples.length - 1]?.[1] ?? NaN),
    peak: (from = 0, to = Infinity) => samples.filter(([t]) => t >= from && t <= to).reduce((m, [, v]) => Math.max(m, v), 0),
  };
}

function machine(pgVersion) {
  const cpu = /model name\s*:\s*(.+)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  const tool = (cmd, args) => {
    let out;
    try {
      out = execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      out = err.stdout || err.stderr || '';
    }
    return String(out).split('\n')[0].trim() || 'not installed';
  };
  return {
    cpu,
    cores: os.cpus().length,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres: pgVersion,
    wrk: which('wrk') ? tool('wrk', ['-v']).replace(/ Copyright.*/, '') : 'not installed (node keep-alive loop used)',
    grep: tool('grep', ['--version']),
    rg: tool('rg', ['--version']),
  };
}

module.exports = { sleep, request, ok, load, pct, median, which, rng, lineGenerator, NEEDLE, rssSampler, machine, performance };
