import { execFileSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { maxConnectionsFor } from '../../src/common/http/descriptor-limit';
import { createTestDatabase } from '../setup/db';
import { getFrom, RawConn, rawConnect, RawResponse, waitFor } from '../setup/raw-http';
import { b64, Headers, ServiceProcess } from './service';

/** The open-files limit the service is held to here (the machine's is 20,000: too many sockets for a test). */
const FILES = 400;
const FLOOD = 480;

/**
 * Issue 32 item 5, as a real process at a small open-files limit: anonymous connections that
 * never finish their request took every descriptor, and every other client's request failed for
 * as long as they were held. The default MAX_CONNECTIONS (3/4 of the limit) refuses the excess
 * with 503 and leaves the rest of the descriptors to the work of those already connected.
 */
describe(`a flood of ${FLOOD} anonymous connections at ${FILES} open files (real process)`, () => {
  let svc: ServiceProcess;
  const flood: RawConn[] = [];

  beforeAll(async () => {
    // What the service would choose itself at this limit; the limit is lowered once it runs.
    svc = new ServiceProcess(await createTestDatabase(), { MAX_CONNECTIONS: String(maxConnectionsFor(FILES)), SEARCH_TIMEOUT_MS: '20000' });
    await svc.start();
  });
  afterAll(async () => {
    for (const c of flood) c.socket.destroy();
    if (svc) await svc.dispose();
  });

  it('refuses what passes MAX_CONNECTIONS with 503 while a signed-in client goes on ingesting and searching', async () => {
    const admin: Headers = await svc.asAdmin();
    // The victim: one kept-alive connection, opened before the flood and kept busy through it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string, path: string, json: unknown) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify(json);
        const req = request(
          { host: '127.0.0.1', port: svc.port, method, path, agent, headers: { ...admin, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const put = (n: number) =>
      call(
        'PUT',
        '/api/ingest/json',
        Array.from({ length: 50 }, (_, i) => ({ TS: new Date().toISOString(), Tag: 'flood', Data: b64(`entry ${n} ${i}`) })),
      );
    let busy = true;
    const keepBusy = (async () => {
      while (busy) {
        await getFrom(svc.port, '/api/info/whoami', { headers: admin, agent });
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    expect(await put(0)).toBe(200);
    execFileSync('prlimit', ['--pid', String(svc.child!.pid), `--nofile=${FILES}:${FILES}`]);

    // Four addresses, so the per-address limit (256) is not what refuses them.
    for (let i = 0; i < FLOOD; i++) flood.push(await rawConnect(svc.port, `127.0.0.${2 + (i % 4)}`));
    // Past the cap each is answered 503 at once, unread; past the cap and its margin for refusals
    // still closing (1/16, at least 64), Node closes them unanswered. None of them is held.
    const cap = maxConnectionsFor(FILES);
    await waitFor(() => flood.filter((c) => c.received() || c.hasEnded()).length >= FLOOD - cap, 'the refusals');
    const answered = await Promise.all(flood.filter((c) => c.received()).map((c) => c.response()));
    expect(answered.length).toBeGreaterThanOrEqual(64);
    expect(new Set(answered.map((r: RawResponse) => `${r.status} ${JSON.stringify(r.body)}`))).toEqual(
      new Set([`503 ${JSON.stringify({ Error: 'The service has too many open connections; try again shortly', Code: 'TOO_MANY_CONNECTIONS' })}`]),
    );

    // Still held: the victim's work needs descriptors of its own (database connections, result files).
    for (let n = 1; n <= 3; n++) {
      expect(await put(n)).toBe(200);
      const range = { SearchStart: new Date(Date.now() - 3600_000).toISOString(), SearchEnd: new Date(Date.now() + 60_000).toISOString() };
      expect(await call('POST', '/api/searchctrl/launch', { SearchString: 'tag=flood count', ...range })).toBe(200);
    }
    busy = false;
    await keepBusy;
    expect(svc.alive).toBe(true);
    agent.destroy();
  });
});
