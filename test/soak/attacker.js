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
const sockets = [];
for (let i = 0; i < (cfg.attacks.includes('sockets') ? cfg.sockets : 0); i++) {
  const ws = new WsClient(`ws://127.0.0.1:${cfg.port}/api/ws/stats`, [cfg.authorization.slice('Bearer '.length)]);
  ws.on('open', () => ws.send(JSON.stringify({ Subs: ['idxStats', 'ping', 'igstStats'] })));
  ws.on('error', () => undefined);
  sockets.push(ws);
}
const running = cfg.attacks.filter((a) => attacks[a]).map((a) => attacks[a]());
process.stdin.resume();
process.stdin.on('end', async () => {
  stopped = true;
  for (const ws of sockets) ws.terminate();
  await Promise.all(running);
  process.stdout.write(JSON.stringify(answers));
  process.exit(0);
});
// Issue 32 items 6-7, issue 24 item 5: pages, compile, lookups, quota, bigimport.
Object.assign(attacks, require('./availability-attacks')({ cfg, base, auth, range, send, note, stopped: () => stopped }));
