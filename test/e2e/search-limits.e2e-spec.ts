import * as fs from 'node:fs';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';
import { limitErrors } from '../setup/errors';

/** Nice values of this process's threads (the scan and merge workers among them). */
const threadNices = () => fs.readdirSync('/proc/self/task').map((tid) => Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
const b64 = (s: string) => Buffer.from(s).toString('base64');
const RANGE = { SearchStart: '2024-05-01T00:00:00Z', SearchEnd: '2024-05-02T00:00:00Z' };
/** V8 still backtracks on counted nested repetitions: this runs until the search timeout. */
const SLOW = 'tag=slow regex "(?P<x>(a{1,30}){1,30}$)"';
const TIMEOUT_MS = 4000;
const DEMOTE_MS = 1500;
/** Long enough for a search sent just before to be admitted, even on a busy machine. */
const ADMITTED_MS = 500;

/** One user's searches cannot take the service from the others; big results stream. */
describe('search limits (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;
  let bob: TestUser;
  /** Runs no search before the priority tests (a user's recent long searches start the next demoted). */
  let carol: TestUser;

  const direct = (h: Headers, q: string, format = 'json') =>
    request(t.http)
      .post('/api/search/direct')
      .set(h)
      .send({ SearchString: q, Format: format, ...RANGE });

  beforeAll(async () => {
    // Generous times: on a loaded 2-core machine a worker's start alone can take several hundred ms,
    // and an ordinary small search must still finish well inside the timeout.
    // No long lane: these tests hold the overall places with long searches (search-long-lane tests the lane).
    t = await createTestApp({
      searchConcurrency: 2,
      searchConcurrencyPerUser: 1,
      searchQueue: 0,
      searchLongConcurrency: 0,
      searchTimeoutMs: TIMEOUT_MS,
      searchDemoteAfterMs: DEMOTE_MS,
    });
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
    carol = await createUser(t.http, admin);
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      TS: new Date(Date.parse('2024-05-01T01:00:00Z') + i * 1000).toISOString(),
      Tag: 'many',
      Data: b64(`line ${i} "quoted", text`),
    }));
    await request(t.http).put('/api/ingest/json').set(admin).send(entries).expect(200);
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '2024-05-01T02:00:00Z', Tag: 'slow', Data: b64('a'.repeat(40) + 'b') }])
      .expect(200);
  });
  afterAll(() => t.close());

  it('caps the searches one user runs at once: beyond the queue, 429 with Retry-After; others still search', async () => {
    const first = direct(alice.headers, SLOW).then((r) => r);
    await new Promise((r) => setTimeout(r, ADMITTED_MS));
    const second = await direct(alice.headers, 'tag=many count');
    expect({ status: second.status, retry: second.headers['retry-after'], error: second.body.Error }).toEqual({
      status: 429,
      retry: '2',
      error: limitErrors.searchesRunning(1, 0),
    });
    const other = await direct(bob.headers, 'tag=many count');
    expect(other.status).toBe(200);
    expect((await first).status).toBe(408);
    // The slot is free again.
    expect((await direct(alice.headers, 'tag=many count')).status).toBe(200);
  });

  it('caps the searches running in all', async () => {
    const slow = [direct(alice.headers, SLOW), direct(bob.headers, SLOW)].map((r) => r.then((res) => res)); // sent now
    await new Promise((r) => setTimeout(r, ADMITTED_MS));
    const third = await direct(admin, 'tag=many count');
    expect(third.status).toBe(429);
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([408, 408]);
  });

  it('a persistent search the caps would refuse is refused at launch with 429, and nothing is left registered', async () => {
    const slow = direct(alice.headers, SLOW).then((r) => r);
    await new Promise((r) => setTimeout(r, ADMITTED_MS));
    const before = await request(t.http).get('/api/searchctrl').set(alice.headers).expect(200);
    const launch = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(alice.headers)
      .send({ SearchString: 'tag=many count', ...RANGE });
    expect({ status: launch.status, retry: launch.headers['retry-after'], error: launch.body.Error }).toEqual({
      status: 429,
      retry: '2',
      error: limitErrors.searchesRunning(1, 0),
    });
    expect((await request(t.http).get('/api/searchctrl').set(alice.headers).expect(200)).body).toEqual(before.body);
    expect((await slow).status).toBe(408);
    const launched = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(alice.headers)
      .send({ SearchString: 'tag=many count', ...RANGE })
      .expect(200);
    // It ends before the priority tests below watch this process's threads.
    for (let i = 0; i < 200; i++) {
      const stats = await request(t.http).get(`/api/searchctrl/${launched.body.SearchID}/stats`).set(alice.headers).expect(200);
      if (stats.body.Finished) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  it('a search running past SEARCH_DEMOTE_AFTER_MS yields the CPU: its threads drop from nice 10 to 19', async () => {
    // Demoted workers of the earlier tests' timed-out searches end first (terminate is asynchronous).
    for (let i = 0; i < 100 && threadNices().includes(19); i++) await new Promise((r) => setTimeout(r, 50));
    const sent = Date.now();
    let done = false;
    const slow = direct(carol.headers, SLOW).then((r) => ((done = true), r));
    // Thread priorities observed while the search runs: when nice 10 (a search thread) and 19 were first seen.
    const seen: { at10?: number; at19?: number } = {};
    while (!done && seen.at19 === undefined) {
      const nices = threadNices();
      if (nices.includes(10)) seen.at10 ??= Date.now() - sent;
      if (nices.includes(19)) seen.at19 = Date.now() - sent;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await slow).status).toBe(408);
    expect(seen.at10).toBeDefined();
    expect(seen.at19).toBeGreaterThanOrEqual(DEMOTE_MS - 100); // not at once: only after SEARCH_DEMOTE_AFTER_MS (timers may fire a little early)
  });

  it('a user whose search ran long lately starts the next one at nice 19 at once', async () => {
    // Right after the test above: carol's last search ran past SEARCH_DEMOTE_AFTER_MS.
    for (let i = 0; i < 100 && threadNices().includes(19); i++) await new Promise((r) => setTimeout(r, 50));
    expect(threadNices()).not.toContain(19);
    const sent = Date.now();
    let done = false;
    const slow = direct(carol.headers, SLOW).then((r) => ((done = true), r));
    let at19: number | undefined;
    while (!done && at19 === undefined) {
      if (threadNices().includes(19)) at19 = Date.now() - sent;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await slow).status).toBe(408);
    expect(at19).toBeLessThan(DEMOTE_MS - 500); // well before SEARCH_DEMOTE_AFTER_MS could have demoted it
  });

  it('streams entry results (chunked, no Content-Length) in every format, complete and well formed', async () => {
    const json = await direct(bob.headers, 'tag=many').expect(200);
    expect(json.headers['content-length']).toBeUndefined();
    expect(json.headers['transfer-encoding']).toBe('chunked');
    expect(json.body).toHaveLength(3000);
    expect(Buffer.from(json.body[0].Data, 'base64').toString()).toBe('line 2999 "quoted", text');
    const csv = await direct(bob.headers, 'tag=many', 'csv').expect(200);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('TIMESTAMP,TAG,SRC,DATA');
    expect(lines[1]).toMatch(/^2024-05-01T01:49:59\.000000Z,many,[^,]*,"line 2999 ""quoted"", text"$/);
    expect(lines).toHaveLength(3002);
    const text = await direct(bob.headers, 'tag=many', 'text').expect(200);
    expect(text.text.split('\n')).toHaveLength(3001);
    const none = await direct(bob.headers, 'tag=many grep nothing-matches').expect(200);
    expect(none.body).toEqual([]);
  });
});
