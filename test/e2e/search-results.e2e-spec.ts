/**
 * What searches answer (issue 13): failed searches say so on every REST endpoint and in direct
 * search, aggregations over very many keys work end to end, a count of nothing is 0, and page
 * ranges beyond the cap are cut rather than refused.
 */
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';

const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-02T00:00:00Z' };
const EVIL_QUERY = (tag: string) => `tag=${tag} regex "(?P<x>(a{1,30}){1,30}$)"`;

/** Lines `<ts> k=key<i>`, i in [from, to), ingested as one batch per call. */
async function ingestKeys(http: Server, h: Headers, tag: string, from: number, to: number): Promise<void> {
  const lines = Array.from({ length: to - from }, (_, i) => `2024-03-01T01:00:00Z k=key${from + i}`).join('\n');
  const r = await request(http).post('/api/ingest/lines').set(h).field('tag', tag).attach('file', Buffer.from(lines), 'keys.log');
  if (r.status !== 200) throw new Error(`ingest failed ${r.status} ${JSON.stringify(r.body)}`);
}

async function launch(http: Server, h: Headers, query: string): Promise<{ SearchID: string; SearchSessionID: string }> {
  const r = await request(http)
    .post('/api/searchctrl/launch')
    .set(h)
    .send({ SearchString: query, ...RANGE });
  if (r.status !== 200) throw new Error(`launch failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { SearchID: string; SearchSessionID: string };
}

/** Polls the stats until the search has finished; answers the last stats body. */
async function finished(http: Server, h: Headers, id: string, sid?: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    // A client pings its session while it waits (a long search on a loaded machine outlasts the ping timeout).
    if (sid && i % 20 === 0) await request(http).put(`/api/searchctrl/${id}/ping?sid=${sid}`).set(h).send({ Interval: 0 }).expect(200);
    const r = await request(http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
    if (r.body.Finished === true) return r.body as Record<string, unknown>;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`search ${id} did not finish`);
}

const direct = (http: Server, h: Headers, query: string, format = 'json') =>
  request(http)
    .post('/api/search/direct')
    .set(h)
    .send({ SearchString: query, Format: format, ...RANGE });

describe('failed searches', () => {
  let t: TestApp;
  let user: TestUser;
  const evil = `evil${process.pid}`;

  beforeAll(async () => {
    t = await createTestApp({ searchTimeoutMs: 1000 });
    const admin = await asAdmin(t.http);
    user = await createUser(t.http, admin);
    const r = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '2024-03-01T00:00:01Z', Tag: evil, Data: Buffer.from(`${'a'.repeat(40)}b`).toString('base64') }]);
    expect(r.status).toBe(200);
  });
  afterAll(() => t.close());

  it('keep the reason in stats, info and the list, and answer 422 with it on renderer pages and every download', async () => {
    const l = await launch(t.http, user.headers, EVIL_QUERY(evil));
    const stats = await finished(t.http, user.headers, l.SearchID);
    const reason = stats.Error as string;
    expect(reason).toMatch(/^Search timed out after 1000 ms/);
    expect(stats.Messages).toEqual([{ ID: 1, Severity: 'error', Value: reason }]);
    expect((await request(t.http).get(`/api/searchctrl/${l.SearchID}`).set(user.headers).expect(200)).body[0].Error).toBe(reason);
    expect((await request(t.http).get('/api/searchctrl').set(user.headers).expect(200)).body).toEqual([expect.objectContaining({ ID: l.SearchID, Error: reason })]);
    const failed = { Error: `search failed: ${reason}`, Code: 'SEARCH_FAILED' };
    const page = await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/text?sid=${l.SearchSessionID}`).set(user.headers);
    expect([page.status, page.body]).toEqual([422, failed]);
    for (const format of ['json', 'csv', 'text', 'archive']) {
      const d = await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/${format}`).set(user.headers);
      expect([format, d.status, d.body]).toEqual([format, 422, failed]);
    }
    const table = await launch(t.http, user.headers, `${EVIL_QUERY(evil)} | count by x | table x count`);
    await finished(t.http, user.headers, table.SearchID);
    const tablePage = await request(t.http).get(`/api/searchctrl/${table.SearchID}/renderer/table`).set(user.headers);
    expect([tablePage.status, tablePage.body]).toEqual([422, { Error: expect.stringMatching(/^search failed: Search timed out after 1000 ms/), Code: 'SEARCH_FAILED' }]);
    expect((await request(t.http).get(`/api/searchctrl/${table.SearchID}/download/csv`).set(user.headers)).status).toBe(422);
  });

  it('answer 4xx with the reason in direct search', async () => {
    const r = await direct(t.http, user.headers, `${EVIL_QUERY(evil)} | count | table`);
    expect([r.status, r.body]).toEqual([408, { Error: expect.stringMatching(/^Search timed out after 1000 ms/), Code: 'SEARCH_TIMED_OUT' }]);
  });

  it('answer 5xx when the service caused the failure (an indexer is down)', async () => {
    const down = await createTestApp({ indexerUrls: [t.databaseUrl, 'postgres://nobody:x@127.0.0.1:1/none'] }, t.databaseUrl);
    try {
      const h = await asAdmin(down.http);
      const l = await launch(down.http, h, `tag=${evil} count | table`);
      expect((await finished(down.http, h, l.SearchID)).Error).toBe('Indexer 127.0.0.1:1/none is unavailable');
      const page = await request(down.http).get(`/api/searchctrl/${l.SearchID}/renderer/table`).set(h);
      expect([page.status, page.body]).toEqual([503, { Error: 'search failed: Indexer 127.0.0.1:1/none is unavailable', Code: 'SEARCH_FAILED', RequestId: expect.any(String) }]);
    } finally {
      await down.close();
    }
  });
});

describe('aggregations over many keys, counts of nothing and page ranges', () => {
  const KEYS = 250_000;
  let t: TestApp;
  let user: TestUser;
  const tag = `keys${process.pid}`;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await asAdmin(t.http);
    user = await createUser(t.http, admin);
    for (let from = 0; from < KEYS; from += 100_000) await ingestKeys(t.http, admin, tag, from, Math.min(KEYS, from + 100_000));
  });
  afterAll(() => t.close());

  it('count by over 250,000 distinct keys answers every row on the renderer, in downloads and in direct search', async () => {
    const query = `tag=${tag} kv k | count by k | table k count`;
    const l = await launch(t.http, user.headers, query);
    const stats = await finished(t.http, user.headers, l.SearchID, l.SearchSessionID);
    expect(stats.Error).toBeUndefined();
    const page = await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/table`).set(user.headers).expect(200);
    expect(page.body).toEqual(expect.objectContaining({ EntryCount: KEYS, Finished: true, AdditionalEntries: false }));
    expect(page.body.Entries.Columns).toEqual(['k', 'count']);
    const rows = page.body.Entries.Rows as Array<{ Row: string[] }>;
    expect(rows).toHaveLength(KEYS);
    expect(new Set(rows.map((r) => r.Row[0])).size).toBe(KEYS);
    expect(rows.every((r) => r.Row[1] === '1')).toBe(true);
    const csv = await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/csv`).set(user.headers).expect(200);
    expect(csv.text.trim().split('\n')).toHaveLength(KEYS + 1);
    const d = await direct(t.http, user.headers, query);
    expect(d.status).toBe(200);
    expect(d.body.Rows).toHaveLength(KEYS);
  });

  it('counts nothing as 0 in direct search and on the REST renderer; by a key, as no rows', async () => {
    const end = '2024-03-02T00:00:00.000000Z';
    const none = `tag=${tag} grep nosuchtext`;
    expect((await direct(t.http, user.headers, `${none} | count | table`)).body).toEqual({ Columns: ['count'], Rows: [{ TS: end, Row: ['0'] }] });
    expect((await direct(t.http, user.headers, `${none} | stats count | numbercard count`)).body).toEqual([{ Name: 'count', Magnitude: 0, Min: 0, Max: 0 }]);
    expect((await direct(t.http, user.headers, `${none} | count`)).body).toEqual([
      { TS: end, SRC: '', Tag: 0, Data: '', Enumerated: [{ Name: 'count', ValueStr: '0', Value: { Type: 9, Data: Buffer.alloc(8).toString('base64') } }] },
    ]);
    // before a chart, count runs over time windows: a line at 0 over the day (half-hour windows)
    const halfHours = Array.from({ length: 48 }, (_, i) => ({ TS: new Date(Date.parse(RANGE.SearchStart) + i * 1_800_000).toISOString().replace('.000Z', '.000000Z'), Data: [0] }));
    expect((await direct(t.http, user.headers, `${none} | count | chart count`)).body).toEqual({ Names: ['count'], Values: halfHours });
    expect((await direct(t.http, user.headers, `${none} | kv k | count by k | table k count`)).body).toEqual({ Columns: ['k', 'count'], Rows: [] });
    for (const [renderer, args, entries] of [
      ['gauge', 'count', [{ Name: 'count', Magnitude: 0, Min: 0, Max: 0 }]],
      ['table', 'count', { Columns: ['count'], Rows: [{ TS: end, Row: ['0'] }] }],
      ['text', '', [expect.objectContaining({ TS: end, Enumerated: [expect.objectContaining({ Name: 'count', ValueStr: '0' })] })]],
    ] as const) {
      const l = await launch(t.http, user.headers, `${none} | count | ${renderer} ${args}`);
      await finished(t.http, user.headers, l.SearchID);
      const page = await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/${renderer}`).set(user.headers).expect(200);
      expect([renderer, page.body]).toEqual([renderer, expect.objectContaining({ EntryCount: 1, Finished: true, Entries: entries })]);
    }
  });

  it('cuts a page range beyond the cap to 10000 entries and says whether more remain', async () => {
    const five = await launch(t.http, user.headers, `tag=${tag} kv k | limit 5 | table k`);
    await finished(t.http, user.headers, five.SearchID);
    const table = await request(t.http).get(`/api/searchctrl/${five.SearchID}/renderer/table?first=0&last=100000`).set(user.headers).expect(200);
    expect(table.body).toEqual(expect.objectContaining({ AdditionalEntries: false, Entries: { Columns: ['k'], Rows: expect.any(Array) } }));
    expect(table.body.Entries.Rows).toHaveLength(5);
    const many = await launch(t.http, user.headers, `tag=${tag} limit 10005`);
    await finished(t.http, user.headers, many.SearchID);
    const url = `/api/searchctrl/${many.SearchID}/renderer/text`;
    const first = await request(t.http).get(`${url}?first=0&last=100000`).set(user.headers).expect(200);
    expect(first.body).toEqual(expect.objectContaining({ EntryCount: 10005, AdditionalEntries: true, EntryRange: expect.objectContaining({ First: 0, Last: 10000 }) }));
    expect(first.body.Entries).toHaveLength(10000);
    const rest = await request(t.http).get(`${url}?first=10000&last=100000`).set(user.headers).expect(200);
    expect(rest.body).toEqual(expect.objectContaining({ AdditionalEntries: false, EntryRange: expect.objectContaining({ First: 10000, Last: 10005 }) }));
    expect(rest.body.Entries).toHaveLength(5);
    await request(t.http).get(`${url}?first=5&last=2`).set(user.headers).expect(400);
  });
});
