import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, TestUser } from '../setup/auth';
import { errorBody, frameError, wsErrors } from '../setup/errors';
import { describeReport, measure } from '../setup/event-loop';
import { waitFor } from '../setup/raw-http';
import { listen, openWs, Opened } from '../setup/ws';

/**
 * Issue 32 items 4 and 5: what one user's websockets may hold. Searches announced but not yet
 * acknowledged are bounded per socket and per user in number, estimated bytes and time; a user
 * holds a bounded number of sockets; a socket with no frame either way is closed.
 */
type Frame = Record<string, any>;
const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-02T00:00:00Z' };
const jwtOf = (u: TestUser) => u.headers.Authorization.slice('Bearer '.length);
const send = (o: Opened, type: string, data: unknown) => o.ws.send(JSON.stringify({ type, data }));

const opened: Opened[] = [];
async function routed(url: string, user: TestUser): Promise<Opened> {
  const o = await openWs(url, [jwtOf(user)]);
  opened.push(o);
  o.ws.send(JSON.stringify({ Subs: ['PONG', 'parse', 'search', 'attach'] }));
  expect(await o.next()).toEqual({ Resp: 'ACK' });
  return o;
}

/** Sends a search request; answers the data of the `search` frame that answers it. */
async function announce(o: Opened, query: string): Promise<Frame> {
  send(o, 'search', { SearchString: query, ...RANGE });
  const f = await o.next();
  expect(f.type).toBe('search');
  return f.data as Frame;
}

/** Drops an announced search (a NACK) and waits until the socket has handled it (frames are handled in order). */
async function drop(o: Opened, subproto: string): Promise<void> {
  send(o, 'search', { Ok: false, OutputSearchSubproto: subproto });
  send(o, 'PONG', {});
  expect(await o.next()).toEqual({ type: 'PONG', data: {} });
}

/** Our sockets end first: the server's close waits for every connection. */
async function stop(t: TestApp): Promise<void> {
  for (const o of opened.splice(0)) o.ws.terminate();
  await t.close();
}

describe('websocket searches waiting for their ACK', () => {
  let t: TestApp;
  let url: string;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({
      wsPendingSearchesPerSocket: 3,
      wsPendingSearchesPerUser: 5,
      wsPendingSearchBytesPerSocket: 1024 * 1024,
      wsPendingSearchBytesPerUser: 1.5 * 1024 * 1024,
    });
    url = `${await listen(t)}/api/ws/search`;
    admin = await asAdmin(t.http);
  });
  afterAll(() => stop(t));

  it('holds at most WS_PENDING_SEARCHES_PER_SOCKET on one socket; a NACK frees a place', async () => {
    const u = await createUser(t.http, admin);
    const o = await routed(url, u);
    const held: string[] = [];
    for (let i = 0; i < 3; i++) held.push((await announce(o, 'tag=a count')).OutputSearchSubproto as string);
    expect(held).toEqual([expect.stringMatching(/^search\d+$/), expect.stringMatching(/^search\d+$/), expect.stringMatching(/^search\d+$/)]);
    expect(await announce(o, 'tag=a count')).toEqual(frameError(wsErrors.pendingPerSocket(3)));
    await drop(o, held[0]);
    expect(await announce(o, 'tag=a count')).toEqual(expect.objectContaining({ OutputSearchSubproto: expect.stringMatching(/^search\d+$/) }));
  });

  it("holds at most WS_PENDING_SEARCHES_PER_USER over all of a user's sockets, and other users are not counted", async () => {
    const u = await createUser(t.http, admin);
    const first = await routed(url, u);
    const second = await routed(url, u);
    const held: string[] = [];
    for (let i = 0; i < 3; i++) held.push((await announce(first, 'tag=a count')).OutputSearchSubproto as string);
    for (let i = 0; i < 2; i++) expect((await announce(second, 'tag=a count')).Error).toBeUndefined();
    expect(await announce(second, 'tag=a count')).toEqual(frameError(wsErrors.pendingPerUser(5)));
    const other = await routed(url, await createUser(t.http, admin));
    expect((await announce(other, 'tag=a count')).Error).toBeUndefined();
    // Closing a socket gives back what it held.
    first.ws.close();
    await waitFor(async () => (await announce(second, 'tag=a count')).Error === undefined, 'the closed socket to give back its searches');
  });

  it('bounds the estimated bytes of compiled queries per socket and per user (WS_PENDING_SEARCH_BYTES_PER_*)', async () => {
    const u = await createUser(t.http, admin);
    // 2,000 characters: about 528 KiB estimated (256 bytes a character + 16 KiB).
    const long = `tag=a grep ${'x'.repeat(1989)}`;
    expect(long).toHaveLength(2000);
    const a = await routed(url, u);
    expect((await announce(a, long)).Error).toBeUndefined();
    expect(await announce(a, long)).toEqual(frameError(wsErrors.pendingBytesPerSocket(1)));
    const b = await routed(url, u);
    expect((await announce(b, long)).Error).toBeUndefined();
    const c = await routed(url, u);
    expect(await announce(c, long)).toEqual(frameError(wsErrors.pendingBytesPerUser(1.5)));
    // A short one still fits beside them.
    expect((await announce(c, 'tag=a count')).Error).toBeUndefined();
  });
});

describe('a websocket search nobody acknowledges', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ wsPendingSearchTimeoutMs: 300, wsPendingSearchesPerSocket: 1 });
    url = `${await listen(t)}/api/ws/search`;
  });
  afterAll(() => stop(t));

  it('is dropped after WS_PENDING_SEARCH_TIMEOUT_MS with an error frame naming its subprotocol, and frees its place', async () => {
    const o = await routed(url, await createUser(t.http, await asAdmin(t.http)));
    const sub = (await announce(o, 'tag=a count')).OutputSearchSubproto as string;
    expect(await o.next()).toEqual({ type: 'search', data: { Error: wsErrors.notAcknowledged(sub, 0.3), OutputSearchSubproto: sub } });
    send(o, 'search', { Ok: true, OutputSearchSubproto: sub });
    expect(await o.next()).toEqual({ type: 'search', data: { Error: wsErrors.noneWaiting(sub), OutputSearchSubproto: sub } });
    expect((await announce(o, 'tag=a count')).Error).toBeUndefined();
  });
});

describe('websockets one user holds', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ wsMaxPerUser: 3 });
    url = `${await listen(t)}/api/ws/stats`;
  });
  afterAll(() => stop(t));

  it('refuses the upgrade past WS_MAX_PER_USER with 429 and a reason, counts each user apart, and frees a place when one closes', async () => {
    const admin = await asAdmin(t.http);
    const u = await createUser(t.http, admin);
    const mine: Opened[] = [];
    for (let i = 0; i < 3; i++) mine.push(await openWs(url, [jwtOf(u)]));
    opened.push(...mine);
    await expect(openWs(url, [jwtOf(u)])).rejects.toMatchObject({ status: 429, body: errorBody(wsErrors.tooManySockets(3), 'TOO_MANY_WEBSOCKETS') });
    const other = await openWs(url, [jwtOf(await createUser(t.http, admin))]);
    opened.push(other);
    mine[0].ws.close();
    await waitFor(async () => {
      try {
        opened.push(await openWs(url, [jwtOf(u)]));
        return true;
      } catch (err) {
        if ((err as { status?: number }).status !== 429) throw err;
        return false;
      }
    }, 'a place after closing a socket');
  });
});

describe('an idle websocket', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ wsIdleTimeoutMs: 400 });
    url = `${await listen(t)}/api/ws/search`;
  });
  afterAll(() => stop(t));

  it('is closed with 4408 after WS_IDLE_TIMEOUT_MS without a frame either way; pings and PONG frames keep one open', async () => {
    const u = await createUser(t.http, await asAdmin(t.http));
    const idle = await openWs(url, [jwtOf(u)]);
    const pinging = await openWs(url, [jwtOf(u)]);
    const ponging = await routed(url, u);
    opened.push(idle, pinging);
    const closedWith = new Promise<[number, string]>((resolve) => idle.ws.once('close', (code, reason) => resolve([code, String(reason)])));
    let pongs = 0;
    const keepAlive = setInterval(() => {
      pinging.ws.ping();
      send(ponging, 'PONG', {});
      pongs++;
    }, 100);
    try {
      expect(await closedWith).toEqual([4408, 'idle for 0.4 s']);
      // The busy ones outlive the idle one by several timeouts.
      const start = pongs;
      await waitFor(() => pongs - start >= 15, 'fifteen keep-alives');
      expect([pinging.ws.readyState, ponging.ws.readyState]).toEqual([pinging.ws.OPEN, ponging.ws.OPEN]);
    } finally {
      clearInterval(keepAlive);
    }
  });
});

describe('parse frames', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    // One query of a user in the query workers at a time, none waiting: a second at once is refused.
    t = await createTestApp({ queryWorkPerUser: 1, queryWorkQueue: 0 });
    url = `${await listen(t)}/api/ws/search`;
  });
  afterAll(() => stop(t));

  it('are described in the query workers, admitted per user like POST /api/parse: a 65,536-character query never holds the event loop', async () => {
    let q = 'tag=a grep a';
    while (q.length + 16 < 65_536) q += ' | grep a';
    const u = await createUser(t.http, await asAdmin(t.http));
    const sockets = await Promise.all([routed(url, u), routed(url, u)]);
    const { result, report } = await measure(() =>
      Promise.all(
        sockets.map(async (o) => {
          send(o, 'parse', { SearchString: q, Sequence: 7 });
          return (await o.next()).data as Frame;
        }),
      ),
    );
    process.stdout.write(`${describeReport('two websocket parse frames of a 7,300-module query', report)}\n`);
    // Both at once: one is described, the other refused as POST /api/parse would be.
    expect(result.map((d) => (d.Error === undefined ? 'described' : 'refused')).sort()).toEqual(['described', 'refused']);
    expect(result.find((d) => d.Error === undefined)).toEqual(expect.objectContaining({ Sequence: 7, GoodQuery: true }));
    expect(result.find((d) => d.Error !== undefined)!.Error).toMatch(/QUERY_WORK_PER_USER|QUERY_WORK_QUEUE/);
  });
});

describe('a socket whose requests keep being refused', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ wsPendingSearchesPerSocket: 1, refusalBrakeMax: 2, refusalBrakeDelayMs: 600 });
    url = `${await listen(t)}/api/ws/search`;
  });
  afterAll(() => stop(t));

  it('stops being read for REFUSAL_BRAKE_DELAY_MS after each refusal past REFUSAL_BRAKE_MAX of its user', async () => {
    const o = await routed(url, await createUser(t.http, await asAdmin(t.http)));
    expect((await announce(o, 'tag=a count')).Error).toBeUndefined();
    // Two refusals pass untouched: the frame after each is answered at once.
    for (let i = 0; i < 2; i++) expect(await announce(o, 'tag=a count')).toEqual(frameError(wsErrors.pendingPerSocket(1)));
    // The third: then the socket reads nothing for a while, so a PONG sent after it waits.
    expect(await announce(o, 'tag=a count')).toEqual(frameError(wsErrors.pendingPerSocket(1)));
    const refusedAt = Date.now();
    send(o, 'PONG', {});
    expect(await o.next()).toEqual({ type: 'PONG', data: {} });
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(500);
  });
});
