// The hostile user of hostile.soak-spec.ts, as a client process of its own (as a real attacker
// is): its response handling must not share the victims' event loop. Reads its settings from
// argv[2] (JSON), attacks until stdin closes, then prints what each attack got back as JSON.
const zlib = require('node:zlib');
const { WebSocket: WsClient } = require('ws');

const cfg = JSON.parse(process.argv[2]);
const base = `http://127.0.0.1:${cfg.port}`;
const auth = { Authorization: cfg.authorization };
const range = () => ({ SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date(Date.now() + 60_000).toISOString() });
let stopped = false;
const answers = {};
const note = (what, status) => (answers[what] ??= []).push(status);

/** A request whose body is read and thrown away (never parsed): status, or -1 when cut off. */
async function send(path, init) {
  try {
    const res = await fetch(base + path, { ...init, signal: AbortSignal.timeout(60_000) });
    const reader = res.body.getReader();
    for (;;) if ((await reader.read()).done) break;
    return res.status;
  } catch {
    return -1;
  }
}
const direct = (q) =>
  send('/api/search/direct', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ SearchString: q, Format: 'json', ...range() }) });
const bomb = zlib.gzipSync(Buffer.alloc(64 << 20), { level: 9 });
const loop = async (what, once) => {
  while (!stopped) note(what, await once());
};
const attacks = {
  regex: () => loop('catastrophic regex', () => direct('tag=hostile limit 10 | regex "(?P<x>(a+)+$)"')),
  slowregex: () => loop('expensive regex', () => direct('tag=hostile limit 10 | regex "(?P<x>(a{1,30}){1,30}$)"')),
  rows: () => loop('every row', () => direct('tag=hostbig')),
  bomb: () =>
    loop('gzip bomb import', () => {
      const form = new FormData();
      form.append('file', new Blob([bomb]), 'bomb.tar.gz');
      return send('/api/searchctrl/import', { method: 'POST', headers: auth, body: form });
    }),
};

// Connections and websockets the attacks below hold, let go when the run stops.
const net = require('node:net');
const held = new Set();
const hold = (s) => {
  held.add(s);
  s.once('close', () => held.delete(s));
  return s;
};
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const jwt = cfg.authorization.slice('Bearer '.length);
/** The 65,404-character `grep a | ...` of issue 32 item 4 (several MB once compiled). */
const bigQuery = (() => {
  const q = ('tag=hostile ' + Array(20000).fill('grep a').join(' | ')).slice(0, 65404);
  return q.slice(0, q.lastIndexOf(' |'));
})();
/** One search socket that asks for big searches and never acknowledges them: 200 announced, 429 or 400 refused, 408 dropped unacknowledged. */
const unacknowledged = () =>
  new Promise((resolve) => {
    const ws = hold(new WsClient(`ws://127.0.0.1:${cfg.port}/api/ws/search`, [jwt]));
    const ask = () => !stopped && ws.send(JSON.stringify({ type: 'search', data: { SearchString: bigQuery, ...range() } }));
    ws.on('open', () => ws.send(JSON.stringify({ Subs: ['PONG', 'parse', 'search', 'attach'] })));
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.Resp === 'ACK') return ask();
      if (m.type !== 'search') return;
      const error = m.data?.Error;
      if (error && /not acknowledged/.test(error)) return note('unacknowledged big searches', 408);
      // Refused for the bounds on waiting searches (429), or as a query too large to compile (400).
      note('unacknowledged big searches', !error ? 200 : /waiting for their acknowledgement|searches per socket/.test(error) ? 429 : 400);
      ask();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => resolve());
  });
/** One anonymous connection holding an unfinished request head until the service closes it: its answer (408, 429), or -1. */
const halfHead = (localAddress) =>
  new Promise((resolve) => {
    const s = hold(net.connect({ port: cfg.port, host: '127.0.0.1', localAddress }));
    let text = '';
    s.on('connect', () => s.write('GET /api/info/whoami HTTP/1.1\r\nHost: x\r\nX-Slow: '));
    s.on('data', (d) => (text += d));
    s.on('error', () => undefined);
    s.on('close', () => resolve(stopped ? 0 : Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? -1)));
  });
/** One of the attacker's stats websockets, held until the service closes it or refuses it: 101 opened, 429 refused. */
const statsSocket = () =>
  new Promise((resolve) => {
    const ws = hold(new WsClient(`ws://127.0.0.1:${cfg.port}/api/ws/stats`, [jwt]));
    ws.on('open', () => {
      note('stats websockets', 101);
      ws.send(JSON.stringify({ Subs: ['idxStats', 'ping', 'igstStats'] }));
    });
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      note('stats websockets', res.statusCode);
      ws.terminate();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => resolve());
  });
const times = (n, fn) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
Object.assign(attacks, {
  // Issue 32 item 4: eight sockets asking for big searches they never acknowledge.
  pending: () =>
    times(8, () =>
      (async () => {
        while (!stopped) await unacknowledged();
      })(),
    ),
  // Issue 32 item 5: 2,400 anonymous unfinished request heads from eight addresses (not the
  // victims' 127.0.0.1), each opened again when the service closes it; a refusal waits a second.
  heads: () =>
    times(2400, (i) =>
      (async () => {
        while (!stopped) {
          const status = await halfHead(`127.0.0.${2 + (i % 8)}`);
          if (stopped) break;
          note('half-sent request heads', status);
          if (status !== 408) await pause(1000);
        }
      })(),
    ),
  // Issue 32 item 5: one user trying to hold 500 stats websockets; a refused one tries again after 2 s.
  wsflood: () =>
    times(500, () =>
      (async () => {
        while (!stopped) {
          await statsSocket();
          if (!stopped) await pause(2000);
        }
      })(),
    ),
});
const sockets = [];
for (let i = 0; i < (cfg.attacks.includes('sockets') ? cfg.sockets : 0); i++) {
  const ws = new WsClient(`ws://127.0.0.1:${cfg.port}/api/ws/stats`, [cfg.authorization.slice('Bearer '.length)]);
  ws.on('open', () => ws.send(JSON.stringify({ Subs: ['idxStats', 'ping', 'igstStats'] })));
  ws.on('error', () => undefined);
  sockets.push(ws);
}
// Issue 32 items 6-7, issue 24 item 5: pages, compile, lookups, quota, bigimport.
Object.assign(attacks, require('./availability-attacks')({ cfg, base, auth, range, send, note, stopped: () => stopped }));
// Issue 32 items 1-3: privilege.
Object.assign(attacks, require('./privilege-attacks')({ cfg, base, auth, range, note, stopped: () => stopped }));
const running = cfg.attacks.filter((a) => attacks[a]).map((a) => attacks[a]());
process.stdin.resume();
process.stdin.on('end', async () => {
  stopped = true;
  for (const ws of sockets) ws.terminate();
  for (const h of held) (h.terminate ?? h.destroy).call(h);
  await Promise.all(running);
  process.stdout.write(JSON.stringify(answers));
  process.exit(0);
});
