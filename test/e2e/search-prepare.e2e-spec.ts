/**
 * Work before admission (issue 32, item 6): what a query costs before it runs (compiling it,
 * reading and parsing the lookup tables it names) is admitted first, runs off the event loop and
 * is bounded per user. A 65,536-character query of about 7,000 tiny modules took 0.3 s of the
 * event loop to compile for every POST /api/parse and launch (four loops took another user's
 * median from 8 to 330 ms), and lookup tables were read and parsed before any search limit.
 */
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';
import { availabilityErrors } from '../setup/errors';
import { describeReport, measure } from '../setup/event-loop';
import { QueryWork } from '../../src/search/query-work';

const RANGE = { SearchStart: '2024-07-01T00:00:00Z', SearchEnd: '2024-07-02T00:00:00Z' };

/** `tag=x grep a | grep a | ...` up to 65,536 characters: about 7,300 tiny modules. */
function hugeQuery(tag: string): string {
  let q = `tag=${tag} grep a`;
  while (q.length + 16 < 65_536) q += ' | grep a';
  return `${q} | text`;
}

async function createResource(http: Server, h: Headers, name: string, csv: Buffer): Promise<void> {
  const res = await request(http).post('/api/resources').set(h).send({ ResourceName: name, Description: 'big lookup', GroupACL: [] });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  await request(http).put(`/api/resources/${res.body.GUID}/raw`).set(h).attach('file', csv, 'table.csv').expect(200);
}

describe('work before admission', () => {
  let t: TestApp;
  let hostile: TestUser;
  let crowded: TestUser;
  let victim: TestUser;
  const tag = `prep${process.pid}`;
  const whoami = () => request(t.http).get('/api/info/whoami').set(victim.headers).expect(200);
  const launch = (h: Headers, SearchString: string) =>
    request(t.http)
      .post('/api/searchctrl/launch')
      .set(h)
      .send({ SearchString, ...RANGE });

  beforeAll(async () => {
    // One search at a time per user and none waiting: the admission test fills it with one search.
    t = await createTestApp({ queryCompileMaxMs: 10, searchConcurrencyPerUser: 1, searchQueue: 0, searchTimeoutMs: 3000 } as Record<string, unknown>);
    const admin = await asAdmin(t.http);
    hostile = await createUser(t.http, admin);
    crowded = await createUser(t.http, admin);
    victim = await createUser(t.http, admin);
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '2024-07-01T01:00:00Z', Tag: tag, Data: Buffer.from(`${'a'.repeat(40)}b`).toString('base64') }])
      .expect(200);
    await whoami();
  });
  afterAll(() => t.close());

  it('POST /api/parse describes a 65,536-character query in a worker: four loops of it leave the event loop free', async () => {
    const q = hugeQuery(tag);
    const parse = () => request(t.http).post('/api/parse').set(hostile.headers).send({ SearchString: q });
    // The condition: every answer came from a query worker (QueryWork.describeJson), never the web server's thread.
    const inWorker = jest.spyOn(t.app.get(QueryWork), 'describeJson');
    // Four loops of three; they take turns (QUERY_WORK_PER_USER) in the query workers.
    const { result, report } = await measure(
      () =>
        Promise.all(
          [0, 1, 2, 3].map(async () => {
            const answers = [];
            for (let i = 0; i < 3; i++) answers.push(await parse());
            return answers;
          }),
        ),
      whoami,
    );
    process.stdout.write(`${describeReport('four loops of POST /api/parse of a 7,300-module query', report)}\n`);
    const statuses = result.flat().map((r) => r.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const body = result[0][0].body as { GoodQuery: boolean; ModuleHints: unknown[] };
    expect(body.GoodQuery).toBe(true);
    expect(inWorker).toHaveBeenCalledTimes(12);
    inWorker.mockRestore();
    // A generous bound (parsing it on the loop blocked it 573 ms for the four loops); the strict goal is the bench's.
    expect(report.maxDelayMs).toBeLessThan(1000);
  });

  it('refuses a launch whose compile would take longer than QUERY_COMPILE_MAX_MS, and compiles it off the event loop', async () => {
    const q = hugeQuery(tag);
    const { result, report } = await measure(() => Promise.all([0, 1, 2, 3].map(() => launch(hostile.headers, q))), whoami);
    process.stdout.write(`${describeReport('four launches of a 7,300-module query', report)}\n`);
    for (const r of result) {
      expect(r.status).toBe(400);
      expect(r.body.Error).toMatch(availabilityErrors.queryTooLarge(10));
    }
    // Refused by the worker's measure of the compile (QUERY_COMPILE_MAX_MS): the web server never compiled it. A generous bound.
    expect(report.maxDelayMs).toBeLessThan(1000);
    // Direct search is refused the same way; an ordinary query still runs.
    const d = await request(t.http)
      .post('/api/search/direct')
      .set(hostile.headers)
      .send({ SearchString: q, ...RANGE });
    expect([d.status, d.body.Error]).toEqual([400, expect.stringContaining('QUERY_COMPILE_MAX_MS')]);
    await request(t.http)
      .post('/api/search/direct')
      .set(hostile.headers)
      .send({ SearchString: `tag=${tag} count`, ...RANGE })
      .expect(200);
  });

  it('admits a launch before compiling it or reading its tables: a user with every slot taken gets 429 at once', async () => {
    // SEARCH_CONCURRENCY_PER_USER 1, SEARCH_QUEUE 0: one slow search takes the user's only slot.
    const slow = await launch(crowded.headers, `tag=${tag} regex "(?P<x>(a{1,30}){1,30}$)"`).expect(200);
    try {
      // A table that does not exist and a query that does not parse: neither is looked at.
      for (const q of [`tag=${tag} lookup -r nosuchtable a a b | text`, `tag=${tag} nosuchmodule`]) {
        const r = await launch(crowded.headers, q);
        expect([r.status, r.body.Error]).toEqual([429, expect.stringContaining('searches running')]);
      }
      const d = await request(t.http)
        .post('/api/search/direct')
        .set(crowded.headers)
        .send({ SearchString: `tag=${tag} lookup -r nosuchtable a a b | text`, ...RANGE });
      expect(d.status).toBe(429);
      // Other users are not held back.
      await launch(victim.headers, `tag=${tag} count`).expect(200);
    } finally {
      await request(t.http).delete(`/api/searchctrl/${slow.body.SearchID}`).set(crowded.headers).expect(200);
    }
  });

  it('reads and parses lookup tables in a worker, one user at a time: parallel launches naming big tables get 200 or 429 and leave the event loop free', async () => {
    // Four tables of about 8 MiB (one column, 1 million rows each), each a different version.
    const names: string[] = [];
    for (let i = 0; i < 4; i++) {
      const rows = Array.from({ length: 1_000_000 }, (_, r) => `k${i}_${r}`);
      names.push(`big${i}_${process.pid}`);
      await createResource(t.http, hostile.headers, names[i], Buffer.from(`a,b\n${rows.map((r) => `${r},${r}`).join('\n')}\n`));
    }
    const { result, report } = await measure(() => Promise.all(names.map((n) => launch(hostile.headers, `tag=${tag} lookup -r ${n} a a b | text`).then((r) => r.status))), whoami);
    process.stdout.write(`${describeReport('four launches naming 8 MiB lookup tables', report)}\n`);
    // Admitted or told to wait; never a server error.
    expect(result.every((s) => s === 200 || s === 429)).toBe(true);
    expect(result).toContain(200);
    // A generous bound (parsing four such tables on the loop blocks it for seconds); the strict goal is the bench's.
    expect(report.maxDelayMs).toBeLessThan(1000);
  }, 120_000);
});
