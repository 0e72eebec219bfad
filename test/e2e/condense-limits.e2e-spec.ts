/**
 * Memory bounds of condensing modules and renderers (issue 16): a search past one fails, and every
 * endpoint that serves it says which module and which limit (stats, renderer pages, downloads,
 * websocket, direct search): never an empty result that looks finished. Bounds come from the
 * query (`-maxtracked`) or the service's configuration (SEARCH_* variables).
 */
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers } from '../setup/auth';
import { listen, openWs, Opened } from '../setup/ws';

type Frame = Record<string, any>;
const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-02T00:00:00Z' };
const KEYS = 30;

async function ingestKeys(http: Server, h: Headers, tag: string): Promise<void> {
  const lines = Array.from({ length: KEYS }, (_, i) => `2024-03-01T01:00:${String(i).padStart(2, '0')}Z k=key${i}`).join('\n');
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

async function finished(http: Server, h: Headers, id: string): Promise<Frame> {
  for (let i = 0; i < 300; i++) {
    const r = await request(http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
    if (r.body.Finished === true) return r.body as Frame;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`search ${id} did not finish`);
}

const direct = (http: Server, h: Headers, query: string) =>
  request(http)
    .post('/api/search/direct')
    .set(h)
    .send({ SearchString: query, Format: 'json', ...RANGE });

/** Runs `query` on every endpoint and checks each one reports `reason` (a module and its limit). */
async function failsEverywhere(t: TestApp, h: Headers, query: string, renderer: string, reason: RegExp): Promise<void> {
  const l = await launch(t.http, h, query);
  const stats = await finished(t.http, h, l.SearchID);
  expect(stats.Error).toMatch(reason);
  const failed = { Error: `search failed: ${stats.Error as string}`, Code: 'SEARCH_FAILED' };
  const page = await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/${renderer}`).set(h);
  expect([page.status, page.body]).toEqual([422, failed]);
  for (const format of ['json', 'csv']) {
    const d = await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/${format}`).set(h);
    expect([format, d.status, d.body]).toEqual([format, 422, failed]);
  }
  const info = await request(t.http).get(`/api/searchctrl/${l.SearchID}`).set(h).expect(200);
  expect(info.body[0].Error).toBe(stats.Error);

  const o: Opened = await openWs(`${await listen(t)}/api/ws/search`, [h.Authorization.slice('Bearer '.length)]);
  try {
    o.ws.send(JSON.stringify({ Subs: ['search'] }));
    expect(await o.next()).toEqual({ Resp: 'ACK' });
    o.ws.send(JSON.stringify({ type: 'search', data: { SearchString: query, ...RANGE } }));
    const resp = (await o.next()).data as Frame;
    expect(resp.Error).toBeUndefined();
    const sub = resp.OutputSearchSubproto as string;
    o.ws.send(JSON.stringify({ type: 'search', data: { OK: true, OutputSearchSubproto: sub } }));
    let count: Frame = {};
    for (let i = 0; i < 300 && !count.Finished; i++) {
      if (i) await new Promise((res) => setTimeout(res, 50));
      o.ws.send(JSON.stringify({ type: sub, data: { ID: 3 } }));
      count = (await o.next()).data as Frame;
    }
    expect(count).toEqual(expect.objectContaining({ ID: 3, Finished: true, Error: expect.stringMatching(reason) }));
    o.ws.send(JSON.stringify({ type: sub, data: { ID: 0x10, EntryRange: { First: 0, Last: 10 } } }));
    expect((await o.next()).data).toEqual({ ID: 0x10, Error: expect.stringMatching(reason) });
  } finally {
    o.ws.terminate();
  }

  const d = await direct(t.http, h, query);
  expect(d.status).toBeGreaterThanOrEqual(400);
  expect(d.status).toBeLessThan(500);
  expect(d.body.Error).toMatch(reason);
}

describe('condensing limits on every endpoint (e2e)', () => {
  let t: TestApp;
  let user: Headers;
  const tag = `climits${process.pid}`;

  beforeAll(async () => {
    // Configured bounds (SEARCH_RENDER_MAX_ROWS=20, SEARCH_SORT_MAX_ENTRIES=20, SEARCH_MAX_TRACKED=25).
    t = await createTestApp({ searchRenderMaxRows: 20, searchSortMaxEntries: 20, searchMaxTracked: 25 });
    const admin = await asAdmin(t.http);
    user = (await createUser(t.http, admin)).headers;
    await ingestKeys(t.http, admin, tag);
  });
  afterAll(() => t.close());

  it('-maxtracked past its bound in a scan: count names itself and the flag', async () => {
    await failsEverywhere(t, user, `tag=${tag} kv k | count -maxtracked 10 by k | table k count`, 'table', /count: more than 10 distinct groups \(-maxtracked\)/);
  });

  it('the configured default -maxtracked (SEARCH_MAX_TRACKED) reaches the search workers', async () => {
    await failsEverywhere(t, user, `tag=${tag} kv k | unique k | table k`, 'table', /unique: more than 25 distinct keys \(-maxtracked\)/);
  });

  it('a configured bound of a streamed renderer (table rows, SEARCH_RENDER_MAX_ROWS) fails the search too', async () => {
    await failsEverywhere(t, user, `tag=${tag} kv k | table k`, 'table', /table: more than 20 rows \(SEARCH_RENDER_MAX_ROWS\)/);
  });

  it('a chart whose output would pass SEARCH_RENDER_MAX_ROWS values fails the search too', async () => {
    // key1, key10..key19: 11 series of one cell each, at 11 times: 121 values.
    await failsEverywhere(
      t,
      user,
      `tag=${tag} kv k | grep key1 | chart by k`,
      'chart',
      /chart: more than 20 values \(series x time buckets; use "limit"\) \(SEARCH_RENDER_MAX_ROWS\)/,
    );
  });

  it('a configured bound after the merge (sort, SEARCH_SORT_MAX_ENTRIES) fails the search too', async () => {
    await failsEverywhere(t, user, `tag=${tag} kv k | count -maxtracked 100 by k | sort by k | table k count`, 'table', /sort: more than 20 entries \(SEARCH_SORT_MAX_ENTRIES\)/);
  });

  it('at the bounds the answers are exact', async () => {
    // 30 groups at -maxtracked 30 (the table of them would pass SEARCH_RENDER_MAX_ROWS=20: counted instead).
    const r = await direct(t.http, user, `tag=${tag} kv k | count -maxtracked 30 by k | count | table count`).expect(200);
    expect(r.body.Rows.map((row: { Row: string[] }) => row.Row)).toEqual([[String(KEYS)]]);
    const top = await direct(t.http, user, `tag=${tag} kv k | count -maxtracked 30 by k | limit 20 | table k count`).expect(200);
    expect(top.body.Rows).toHaveLength(20);
    const stack = await direct(t.http, user, `tag=${tag} kv k | count -maxtracked 30 by k | limit 3 | stackgraph k k count`).expect(200);
    expect(stack.body).toEqual([
      { Key: 'key0', Values: [{ Label: 'key0', Value: 1 }] },
      { Key: 'key1', Values: [{ Label: 'key1', Value: 1 }] },
      { Key: 'key10', Values: [{ Label: 'key10', Value: 1 }] },
    ]);
  });
});
