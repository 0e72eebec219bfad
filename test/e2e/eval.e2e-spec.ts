import request from 'supertest';
import { asAdmin, Headers } from '../setup/auth';
import { createTestApp, TestApp } from '../setup/app';
import { errorBody, queryErrors } from '../setup/errors';

const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-02T00:00:00Z' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** Web server entries; one has no status, one has it as text. */
const WEB = [
  ['10:00:00', '{"status":200,"host":"web1"}'],
  ['10:01:00', '{"status":503,"host":"web1"}'],
  ['10:02:00', '{"status":500,"host":"web2"}'],
  ['10:03:00', '{"status":404,"host":"web2"}'],
  ['10:04:00', '{"status":502,"host":"web1"}'],
  ['10:05:00', '{"host":"web3"}'],
  ['10:06:00', '{"status":"501","host":"web3"}'],
];
const TS = (hms: string) => `2024-03-01T${hms}.000000Z`;

describe('eval over ingested data (e2e)', () => {
  let t: TestApp;
  let admin: Headers;

  const direct = (query: string, format = 'json') =>
    request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: query, Format: format, ...RANGE });

  beforeAll(async () => {
    t = await createTestApp({ searchTimeoutMs: 10_000 });
    admin = await asAdmin(t.http);
    const r = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send(WEB.map(([hms, line]) => ({ TS: `2024-03-01T${hms}Z`, Tag: 'web', SRC: '10.1.0.1', Data: b64(line) })));
    expect(r.status).toBe(200);
  });
  afterAll(() => t.close());

  it('tag=web json status host | eval status >= 500 | count by host | table', async () => {
    const r = await direct('tag=web json status host | eval status >= 500 | count by host | table');
    expect({ status: r.status, body: r.body }).toEqual({
      status: 200,
      body: {
        Columns: ['host', 'count'],
        Rows: [
          { TS: TS('10:04:00'), Row: ['web1', '2'] },
          { TS: TS('10:02:00'), Row: ['web2', '1'] },
          { TS: TS('10:06:00'), Row: ['web3', '1'] }, // "501" as text is promoted to a number
        ],
      },
    });
  });

  it('assignments, || and the bare ( expr ) form through the API', async () => {
    const q = 'tag=web json status host | (status == 200 || host == "web3") | eval kind = has(status) ? printf("%s/%d", host, status) : host + "/none"; | table kind';
    expect((await direct(q, 'csv')).text).toBe('kind\r\nweb3/501\r\nweb3/none\r\nweb1/200\r\n');
  });

  it('a program that never ends fails the search with the eval error; a bad program is a 400', async () => {
    const loop = await direct('tag=web eval for (;;) { x = 1; } | table x');
    expect(loop.status).toBeGreaterThanOrEqual(400);
    expect(loop.status).toBeLessThan(500);
    expect(loop.body.Error).toContain('eval: the program ran more than 100000 steps on one entry (the per-entry step budget, EVAL_MAX_STEPS)');
    const bad = await direct('tag=web eval x = mac(y)');
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: errorBody(queryErrors.module('eval: the mac() cast is not supported at offset 17'), 'QUERY_INVALID'),
    });
  });

  it('GET /api/info/searchmodules describes eval and lists its functions', async () => {
    const r = await request(t.http).get('/api/info/searchmodules').set(admin);
    const ev = (r.body as Array<{ Name: string; Info: string; Examples: string[] }>).find((m) => m.Name === 'eval');
    expect(ev).toEqual({
      Name: 'eval',
      Info: expect.stringContaining('Functions: has, delete, has_key, keys, in, len, type'),
      Examples: expect.arrayContaining(['eval status >= 500']),
      FrontendOnly: false,
      Sorting: false,
      Collapsing: false,
    });
    for (const f of ['printf', 'strings_replace', 'math_pow', 'json_get', 'unix', 'hash_sha256', 'path_join']) expect(ev!.Info).toContain(f);
  });
});
