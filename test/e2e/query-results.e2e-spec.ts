/**
 * What queries answer through the HTTP API (issue 24): stats gives every column it was asked for
 * (times over TIMESTAMP, empty columns with a warning in the search's messages), a count-by drawn
 * by chart is a series per key over time windows, and regular expression errors speak RE2.
 */
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers } from '../setup/auth';

const RANGE = { SearchStart: '2024-05-01T12:00:00Z', SearchEnd: '2024-05-01T13:00:00Z' };
/** Access-log lines: status s at minute m, latency 10 * (i + 1) ms. */
const LINES: Array<{ minute: number; status: number }> = [
  { minute: 1, status: 200 },
  { minute: 1, status: 200 },
  { minute: 2, status: 404 },
  { minute: 24, status: 200 },
  { minute: 25, status: 500 },
  { minute: 46, status: 200 },
  { minute: 46, status: 404 },
  { minute: 58, status: 200 },
];
const tsOf = (minute: number) => new Date(Date.parse(RANGE.SearchStart) + minute * 60_000).toISOString();
const STATUS_REGEX = String.raw`regex "\" (?P<status>\d{3}) (?P<latency_ms>\d+)"`;

type Body = Record<string, any>;

async function launch(http: Server, h: Headers, query: string): Promise<{ SearchID: string; SearchSessionID: string }> {
  const r = await request(http)
    .post('/api/searchctrl/launch')
    .set(h)
    .send({ SearchString: query, ...RANGE });
  if (r.status !== 200) throw new Error(`launch failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { SearchID: string; SearchSessionID: string };
}

/** Polls the stats until the search has finished; answers the last stats body. */
async function finished(http: Server, h: Headers, id: string): Promise<Body> {
  for (let i = 0; i < 600; i++) {
    const r = await request(http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
    if (r.body.Finished === true) return r.body as Body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`search ${id} did not finish`);
}

describe('query results (e2e)', () => {
  let t: TestApp;
  let user: Headers;
  const tag = `nginx${process.pid}`;

  /** Launches, waits for the end, and answers the renderer page and the stats. */
  async function run(query: string, renderer: string): Promise<{ page: Body; stats: Body }> {
    const l = await launch(t.http, user, query);
    const stats = await finished(t.http, user, l.SearchID);
    const page = await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/${renderer}?sid=${l.SearchSessionID}`).set(user).expect(200);
    return { page: page.body as Body, stats };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await asAdmin(t.http);
    user = (await createUser(t.http, admin)).headers;
    const docs = LINES.map((l, i) => ({
      TS: tsOf(l.minute),
      Tag: tag,
      Data: Buffer.from(`10.0.0.${i} - - "GET /x HTTP/1.1" ${l.status} ${10 * (i + 1)}`).toString('base64'),
    }));
    await request(t.http).put('/api/ingest/json').set(admin).send(docs).expect(200);
  });
  afterAll(() => t.close());

  describe('a count by drawn by chart is temporal (item 2)', () => {
    const q = () => `tag=${tag} ${STATUS_REGEX} | count by status | chart count by status`;
    /** Minute m of the range as the chart writes its times. */
    const minuteTs = (m: number) => `${tsOf(m).slice(0, 19)}.000000Z`;

    it('draws a series per status over the windows of the range (one hour: one minute windows)', async () => {
      const { page, stats } = await run(q(), 'chart');
      const chart = page.Entries as { Names: string[]; Values: Array<{ TS: string; Data: number[] }> };
      expect(chart.Names).toEqual(['200', '404', '500']);
      expect(chart.Values.map((v) => v.TS)).toEqual(Array.from({ length: 60 }, (_, m) => minuteTs(m)));
      const at = (m: number) => chart.Values[m].Data;
      expect([at(0), at(1), at(2), at(24), at(25), at(46), at(58)]).toEqual([
        [0, 0, 0],
        [2, 0, 0],
        [0, 1, 0],
        [1, 0, 0],
        [0, 0, 1],
        [1, 1, 0],
        [1, 0, 0],
      ]);
      expect(stats.Messages).toEqual([]);
      // the direct search answers the same chart
      const direct = await request(t.http)
        .post('/api/search/direct')
        .set(user)
        .send({ SearchString: q(), Format: 'json', ...RANGE })
        .expect(200);
      expect(JSON.parse(direct.text)).toEqual(chart);
    });

    it('is time-zoomable, and the same count to a table stays condensed', async () => {
      const parsed = await request(t.http).post('/api/parse').set(user).send({ SearchString: q() }).expect(200);
      expect(parsed.body.TimeZoomDisabled).toBe(false);
      const { page } = await run(`tag=${tag} ${STATUS_REGEX} | count by status | table status count`, 'table');
      expect(page.Entries.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
        ['200', '5'],
        ['404', '2'],
        ['500', '1'],
      ]);
    });

    it('takes the window from over, and groups keys past limit into other', async () => {
      const { page } = await run(`tag=${tag} ${STATUS_REGEX} | count by status over 30m | chart count by status limit 2`, 'chart');
      expect(page.Entries).toEqual({
        Names: ['200', 'other'],
        Values: [
          { TS: minuteTs(0), Data: [3, 2] },
          { TS: minuteTs(30), Data: [2, 1] },
        ],
      });
    });
  });

  describe('stats gives every column it was asked for (item 3)', () => {
    it('computes min and max of TIMESTAMP as times', async () => {
      const { page, stats } = await run(`tag=${tag} stats min(TIMESTAMP) max(TIMESTAMP) count | table`, 'table');
      expect(page.Entries).toEqual({
        Columns: ['min', 'max', 'count'],
        Rows: [{ TS: expect.any(String), Row: [`${tsOf(1).slice(0, 19)}.000000Z`, `${tsOf(58).slice(0, 19)}.000000Z`, '8'] }],
      });
      expect(stats.Messages).toEqual([]);
    });

    it('keeps a column no entry had a value for, empty, and says so in the search messages', async () => {
      const { page, stats } = await run(`tag=${tag} ${STATUS_REGEX} | stats min(nosuch) max(latency_ms) count | table`, 'table');
      expect(page.Entries).toEqual({ Columns: ['min', 'max', 'count'], Rows: [{ TS: expect.any(String), Row: ['', '80', '8'] }] });
      expect(stats.Messages).toEqual([{ ID: 1, Severity: 'warn', Value: 'stats: no entry had a value for min(nosuch); its column min is empty' }]);
      expect(stats.Error).toBeUndefined();
    });

    it('answers a lone operator over TIMESTAMP', async () => {
      const { page } = await run(`tag=${tag} stats min(TIMESTAMP) | table`, 'table');
      expect(page.Entries).toEqual({ Columns: ['min'], Rows: [{ TS: expect.any(String), Row: [`${tsOf(1).slice(0, 19)}.000000Z`] }] });
    });
  });

  describe('regular expression errors speak RE2 (item 13)', () => {
    const message = 'ModuleError: regex: invalid regular expression: missing closing ]: [a- at offset 6 of the expression';

    it('a launch, a direct search and /api/parse name the problem and its offset, never JavaScript syntax', async () => {
      const query = `tag=${tag} regex "(?P<x>[a-"`;
      const launched = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(user)
        .send({ SearchString: query, ...RANGE });
      expect([launched.status, launched.body]).toEqual([400, { Error: message, Code: 'QUERY_INVALID' }]);
      const direct = await request(t.http)
        .post('/api/search/direct')
        .set(user)
        .send({ SearchString: query, Format: 'json', ...RANGE });
      expect([direct.status, direct.body]).toEqual([400, { Error: message, Code: 'QUERY_INVALID' }]);
      const parsed = await request(t.http).post('/api/parse').set(user).send({ SearchString: query }).expect(200);
      expect([parsed.body.GoodQuery, parsed.body.ParseError, parsed.body.ModuleIndex]).toEqual([false, message, 0]);
    });

    it('eval match() too, and what RE2 accepts runs', async () => {
      const query = `tag=${tag} eval match(DATA, "a{2,1}")`;
      const bad = await request(t.http)
        .post('/api/search/direct')
        .set(user)
        .send({ SearchString: query, Format: 'json', ...RANGE });
      // eval adds where match( is in the query
      const error = `ModuleError: eval: match(): invalid regular expression: invalid repeat count: {2,1} at offset 1 of the expression at offset ${query.indexOf('match(')}`;
      expect([bad.status, bad.body]).toEqual([400, { Error: error, Code: 'QUERY_INVALID' }]);
      const { page } = await run(`tag=${tag} regex "(?i)\\" (?P<status>[45]\\d{2}) " | count by status | table status count`, 'table');
      expect(page.Entries.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
        ['404', '2'],
        ['500', '1'],
      ]);
    });
  });
});
