import request from 'supertest';
import { IndexerSearchExecutor } from '../../src/indexer/indexer-search.executor';
import { SearchCancelledError } from '../../src/indexer/scan-run';
import { SearchExecutor } from '../../src/indexer/search-executor';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const RANGE = { SearchStart: '2024-05-01T00:00:00Z', SearchEnd: '2024-05-02T00:00:00Z' };
/** V8 still backtracks on counted nested repetitions: this runs until cancelled (or the search timeout). */
const SLOW = 'tag=slow regex "(?P<x>(a{1,30}){1,30}$)"';

/** Resolves once `ok()` holds, checking after every turn of the event loop; fails after `ms`. */
async function until(ok: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A search demoted past SEARCH_DEMOTE_AFTER_MS moves to the long lane (SEARCH_LONG_CONCURRENCY)
 * and gives its overall place back: one user's long searches no longer hold another user's short
 * search until they time out.
 */
describe('the long lane of search admission (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;
  let bob: TestUser;
  let exec: IndexerSearchExecutor;

  beforeAll(async () => {
    // One overall place, two long ones; the long searches end by cancel, never by the timeout.
    t = await createTestApp({ searchConcurrency: 1, searchConcurrencyPerUser: 2, searchQueue: 4, searchLongConcurrency: 2, searchDemoteAfterMs: 20, searchTimeoutMs: 120_000 });
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
    exec = t.app.get(SearchExecutor) as IndexerSearchExecutor;
    const many = Array.from({ length: 500 }, (_, i) => ({ TS: new Date(Date.parse('2024-05-01T01:00:00Z') + i * 1000).toISOString(), Tag: 'many', Data: b64(`line ${i}`) }));
    await request(t.http).put('/api/ingest/json').set(admin).send(many).expect(200);
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '2024-05-01T02:00:00Z', Tag: 'slow', Data: b64('a'.repeat(40) + 'b') }])
      .expect(200);
  });
  afterAll(() => t.close());

  /** One of alice's long searches, run as a persistent search would be; settles only when cancelled. */
  const longSearch = () => {
    const controller = new AbortController();
    const state = { settled: false };
    const done = exec
      .run(SLOW, { start: new Date(RANGE.SearchStart), end: new Date(RANGE.SearchEnd) }, { entries: () => undefined }, { signal: controller.signal, owner: alice.uid })
      .then(
        () => 'finished',
        (err: unknown) => (err instanceof SearchCancelledError ? 'cancelled' : `failed: ${String(err)}`),
      )
      .finally(() => (state.settled = true));
    return { cancel: () => controller.abort(), done, state };
  };

  it("another user's short search starts while one user's two demoted long searches run, with SEARCH_CONCURRENCY 1", async () => {
    const long = [longSearch(), longSearch()];
    // The first takes the only overall place, is demoted and moves to the long lane; the second
    // then gets the overall place and moves too.
    await until(() => exec.admissionLoad.long === 2, 'both long searches in the long lane');
    expect(exec.admissionLoad).toEqual({ overall: 0, long: 2, wanting: 0 });
    const short = await request(t.http)
      .post('/api/search/direct')
      .set(bob.headers)
      .send({ SearchString: 'tag=many count', Format: 'json', ...RANGE });
    expect(short.status).toBe(200);
    expect(long.map((l) => l.state.settled)).toEqual([false, false]);
    for (const l of long) l.cancel();
    expect(await Promise.all(long.map((l) => l.done))).toEqual(['cancelled', 'cancelled']);
    expect(exec.admissionLoad).toEqual({ overall: 0, long: 0, wanting: 0 });
  });

  it('a long search keeps its per-user place: a third of the same user waits until one ends', async () => {
    const long = [longSearch(), longSearch()];
    await until(() => exec.admissionLoad.long === 2, 'both long searches in the long lane');
    let third = false;
    const ended = exec
      .run(
        'tag=many count',
        { start: new Date(RANGE.SearchStart), end: new Date(RANGE.SearchEnd) },
        { entries: () => undefined },
        { signal: new AbortController().signal, owner: alice.uid },
      )
      .then(() => (third = true));
    // Bob's short search runs through the free overall place while alice's third still waits for her place.
    await request(t.http)
      .post('/api/search/direct')
      .set(bob.headers)
      .send({ SearchString: 'tag=many count', Format: 'json', ...RANGE })
      .expect(200);
    expect(third).toBe(false);
    long[0].cancel();
    await ended;
    expect(third).toBe(true);
    long[1].cancel();
    expect(await Promise.all(long.map((l) => l.done))).toEqual(['cancelled', 'cancelled']);
    expect(exec.admissionLoad).toEqual({ overall: 0, long: 0, wanting: 0 });
  });
});
