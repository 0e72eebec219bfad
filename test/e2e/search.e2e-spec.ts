import request from 'supertest';
import type { ErrorCode } from '../../src/common/errors/codes';
import { Client } from 'pg';
import { asAdmin, Headers } from '../setup/auth';
import { createTestApp, TestApp } from '../setup/app';
import { createTestDatabase } from '../setup/db';
import { createToken } from '../setup/tokens';
import { IndexerService } from '../../src/indexer/indexer.service';
import { watchScanWorkers } from '../setup/scan-workers';
import { storedEntries } from '../setup/blocks';
import { SCAN_APPLICATION_NAME } from '../../src/indexer/scan.worker';
import { SearchExecutor, SearchProgress } from '../../src/indexer/search-executor';

/** Scan jobs and worker threads started while this file runs (the pool's diagnostics channel). */
const scanJobStats = watchScanWorkers();

const b64 = (s: string) => Buffer.from(s).toString('base64');
const txt = (s: string) => Buffer.from(s, 'base64').toString();
const T = (hhmmss: string) => `2024-02-10T${hhmmss}Z`;
const TS = (hhmmss: string) => `2024-02-10T${hhmmss}.000000Z`;
const DAY = { SearchStart: '2024-02-10T00:00:00Z', SearchEnd: '2024-02-11T00:00:00Z' };

/** The fixture: 5 JSON web entries, 3 kv syslog entries, 2 comma-separated entries. */
const WEB = [
  { TS: T('10:00:00'), SRC: '10.0.0.1', line: '{"user":"ann","bytes":100,"status":200}' },
  { TS: T('10:01:00'), SRC: '10.0.0.2', line: '{"user":"bob","bytes":300,"status":404}' },
  { TS: T('10:02:00'), SRC: '10.0.0.1', line: '{"user":"ann","bytes":200,"status":200}' },
  { TS: T('10:03:00'), SRC: '10.0.0.3', line: '{"user":"cid","bytes":400,"status":500}' },
  { TS: T('10:04:00'), SRC: '10.0.0.2', line: '{"user":"bob","bytes":500,"status":200}' },
];
const SYS = [
  { TS: T('10:00:30'), SRC: '10.0.1.1', line: 'level=info user=ann msg=login' },
  { TS: T('10:02:30'), SRC: '10.0.1.1', line: 'level=critical user=bob msg=disk full' },
  { TS: T('10:04:30'), SRC: '10.0.1.2', line: 'level=info user=cid msg=logout' },
];
const CSV = [
  { TS: T('10:00:10'), SRC: '10.0.2.1', line: 'ann,GET,/a,200' },
  { TS: T('10:01:10'), SRC: '10.0.2.1', line: 'bob,POST,/b,500' },
];

describe('search over two indexers (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let main: Client;
  let second: Client;

  const direct = (query: string, format = 'json', extra: Record<string, unknown> = DAY) =>
    request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: query, Format: format, ...extra });
  const csv = async (query: string) => {
    const r = await direct(query, 'csv');
    expect(r.status).toBe(200);
    return r.text;
  };
  const lines = async (query: string, extra?: Record<string, unknown>) => {
    const r = await direct(query, 'json', extra);
    expect(r.status).toBe(200);
    return (r.body as Array<{ Data: string }>).map((e) => txt(e.Data));
  };

  beforeAll(async () => {
    const secondUrl = await createTestDatabase();
    t = await createTestApp({ searchTimeoutMs: 4000 });
    await t.close();
    // The second indexer is a fresh database; the schema is set up at start.
    second = new Client({ connectionString: secondUrl });
    await second.connect();
    await second.query('DROP TABLE IF EXISTS entry CASCADE');
    t = await createTestApp({ searchTimeoutMs: 4000, indexerUrls: [t.databaseUrl, secondUrl] }, t.databaseUrl);
    admin = await asAdmin(t.http);
    main = new Client({ connectionString: t.databaseUrl });
    await main.connect();
    // One request per entry: ingest spreads batches round robin over the two indexers.
    for (const [tag, set] of [
      ['web', WEB],
      ['sys', SYS],
      ['csvtag', CSV],
    ] as const) {
      for (const e of set) {
        const r = await request(t.http)
          .put('/api/ingest/json')
          .set(admin)
          .send([{ TS: e.TS, Tag: tag, SRC: e.SRC, Data: b64(e.line) }]);
        expect(r.status).toBe(200);
      }
    }
  });
  afterAll(async () => {
    await main.end();
    await second.end();
    await t.close();
  });

  it('spread the entries over both indexers', async () => {
    const a = (await storedEntries(main)).length;
    const b = (await storedEntries(second)).length;
    expect([a, b]).toEqual([5, 5]);
  });

  it('text and raw: all entries of a tag, newest first, merged across indexers, in a worker thread', async () => {
    const before = scanJobStats.jobs;
    const r = await direct('tag=web');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([...WEB].reverse().map((e) => ({ TS: TS(e.TS.slice(11, 19)), SRC: e.SRC, Tag: expect.any(Number), Data: b64(e.line), Enumerated: [] })));
    expect(scanJobStats.jobs - before).toBe(2);
    expect(await lines('tag=web grep cid | raw')).toEqual([WEB[3].line]);
    const text = await direct('tag=sys', 'text');
    expect(text.text).toBe(
      [...SYS]
        .reverse()
        .map((e) => e.line)
        .join('\n') + '\n',
    );
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('keeps finished scan workers and their connections for the next search', async () => {
    await lines('tag=web');
    const jobs = scanJobStats.jobs;
    const started = scanJobStats.workersStarted;
    expect(await lines('tag=web grep bob')).toEqual([WEB[4].line, WEB[1].line]);
    expect(scanJobStats.jobs - jobs).toBe(2);
    expect(scanJobStats.workersStarted - started).toBe(0);
  });

  it('a kept scan connection that PostgreSQL closed is replaced, and the search still answers', async () => {
    await lines('tag=web');
    const killed = async (db: Client) =>
      (
        await db.query(`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`, [
          SCAN_APPLICATION_NAME,
        ])
      ).rows[0].n;
    expect((await killed(main)) + (await killed(second))).toBeGreaterThan(0);
    expect(await lines('tag=web grep bob')).toEqual([WEB[4].line, WEB[1].line]);
  });

  it('grep, grep -v, words (pushdown and pipeline agree)', async () => {
    expect(await lines('tag=web grep bob')).toEqual([WEB[4].line, WEB[1].line]);
    expect(await lines('tag=web grep -v bob')).toEqual([WEB[3].line, WEB[2].line, WEB[0].line]);
    expect(await lines('tag=web grep "user\\":\\"a*n"')).toEqual([WEB[2].line, WEB[0].line]);
    expect(await lines('tag=sys words disk full')).toEqual([SYS[1].line]);
    expect(await lines('tag=sys words -or login logout')).toEqual([SYS[2].line, SYS[0].line]);
    expect(await lines('tag=sys words log')).toEqual([]);
  });

  it('json, kv, regex, fields extraction with filters', async () => {
    expect(await csv('tag=web json user status==200 | table user')).toBe('user\r\nbob\r\nann\r\nann\r\n');
    expect(await csv('tag=web json user bytes>250 | table user bytes')).toBe('user,bytes\r\nbob,500\r\ncid,400\r\nbob,300\r\n');
    expect(await csv('tag=sys kv level=="critical" user | table user')).toBe('user\r\nbob\r\n');
    expect(await csv('tag=web regex "\\"user\\":\\"(?P<u>[a-c][a-z]+)\\"" | table u')).toBe('u\r\nbob\r\ncid\r\nann\r\nbob\r\nann\r\n');
    expect(await csv('tag=csvtag fields -d "," [0] as user [3] as code | table user code')).toBe('user,code\r\nbob,500\r\nann,200\r\n');
  });

  it('count, sum, mean, min, max, stddev, variance and stats merge partial results', async () => {
    expect(await csv('tag=web count | table count')).toBe('count\r\n5\r\n');
    expect(await csv('tag=web,sys count by TAG | table TAG count')).toBe('TAG,count\r\nsys,3\r\nweb,5\r\n');
    expect(await csv('tag=web json user bytes | sum bytes by user | table user sum')).toBe('user,sum\r\nann,300\r\nbob,800\r\ncid,400\r\n');
    expect(await csv('tag=web json bytes | mean bytes | table mean')).toBe('mean\r\n300\r\n');
    expect(await csv('tag=web json bytes | min bytes | table min')).toBe('min\r\n100\r\n');
    expect(await csv('tag=web json bytes | max bytes | table max')).toBe('max\r\n500\r\n');
    expect(await csv('tag=web json bytes | variance bytes | table variance')).toBe('variance\r\n20000\r\n');
    const sd = await direct('tag=web json bytes | stddev bytes | table stddev');
    expect(sd.body).toEqual({ Columns: ['stddev'], Rows: [{ TS: expect.any(String), Row: [String(Math.sqrt(20000))] }] });
    expect(await csv('tag=web json user bytes | stats count sum(bytes) mean(bytes) as avg unique_count(user) | table count sum avg unique_count')).toBe(
      'count,sum,avg,unique_count\r\n5,1500,300,3\r\n',
    );
  });

  it('sort, limit, unique', async () => {
    expect(await csv('tag=web json bytes | sort by bytes asc | table bytes')).toBe('bytes\r\n100\r\n200\r\n300\r\n400\r\n500\r\n');
    expect(await lines('tag=web limit 2')).toEqual([WEB[4].line, WEB[3].line]);
    expect(await lines('tag=web limit 1 3')).toEqual([WEB[3].line, WEB[2].line]);
    expect(await csv('tag=web json user | unique user | table user')).toBe('user\r\nbob\r\ncid\r\nann\r\n');
    expect(await csv('tag=web json user bytes | sum bytes by user | sort by sum desc | limit 2 | table user sum')).toBe('user,sum\r\nbob,800\r\ncid,400\r\n');
  });

  it('chart, gauge, numbercard renderers', async () => {
    // A chart draws every time window of the range: six minutes make three windows of 2 minutes.
    const sixMinutes = { SearchStart: T('10:00:00'), SearchEnd: T('10:06:00') };
    const chart = await direct('tag=web json user | stats count by user over 2m | chart count by user', 'json', sixMinutes);
    expect(chart.status).toBe(200);
    expect(chart.body).toEqual({
      Names: ['ann', 'bob', 'cid'],
      Values: [
        { TS: TS('10:00:00'), Data: [1, 1, 0] },
        { TS: TS('10:02:00'), Data: [1, 0, 1] },
        { TS: TS('10:04:00'), Data: [0, 1, 0] },
      ],
    });
    expect((await direct('tag=web json user | stats count by user over 2m | chart count by user', 'csv', sixMinutes).expect(200)).text).toBe(
      `TIMESTAMP,ann,bob,cid\r\n${TS('10:00:00')},1,1,0\r\n${TS('10:02:00')},1,0,1\r\n${TS('10:04:00')},0,1,0\r\n`,
    );
    const gauge = await direct('tag=web json bytes | mean bytes | gauge mean');
    expect(gauge.body).toEqual([{ Name: 'mean', Magnitude: 300, Min: 0, Max: 500 }]);
    const card = await direct('tag=* count | numbercard count');
    expect(card.body).toEqual([{ Name: 'count', Magnitude: 10, Min: 0, Max: 10 }]);
  });

  it('time range and tag selection', async () => {
    expect(await lines('tag=web', { SearchStart: T('10:01:00'), SearchEnd: T('10:03:00') })).toEqual([WEB[2].line, WEB[1].line]);
    expect(await lines(`tag=web start="${T('10:03:00')}"`)).toEqual([WEB[4].line, WEB[3].line]);
    expect(await lines('tag=web', { SearchStart: '2024-02-11T00:00:00Z', SearchEnd: '2024-02-12T00:00:00Z' })).toEqual([]);
    expect(await csv('tag=w*,csv* count | table count')).toBe('count\r\n7\r\n');
    expect(await csv('tag=* count | table count')).toBe('count\r\n10\r\n');
    expect(await lines('tag=nosuchtag')).toEqual([]);
    expect(await lines('grep x')).toEqual([]); // tag=default has no entries
    const recent = await direct('tag=web', 'json', { Duration: '1h' });
    expect(recent.status).toBe(200);
    expect(recent.body).toEqual([]);
    // The body takes the header names too, as the range error says (issue 24, item 15).
    expect((await direct('tag=web', 'json', { duration: '1h' })).body).toEqual([]);
    expect(await lines('tag=web', { start: T('10:01:00'), end: T('10:03:00') })).toEqual([WEB[2].line, WEB[1].line]);
    const lower = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ query: 'tag=web limit 1', format: 'text', ...DAY });
    expect(lower.text).toBe(`${WEB[4].line}\n`);
    const viaHeaders = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .set('query', 'tag=web limit 1')
      .set('format', 'text')
      .query({ start: DAY.SearchStart, end: DAY.SearchEnd });
    expect(viaHeaders.text).toBe(`${WEB[4].line}\n`);
  });

  it('direct search errors: bad query, bad format, missing range', async () => {
    const cases: Array<[Record<string, unknown>, string, ErrorCode]> = [
      [{ SearchString: 'tag=web makerainbows', ...DAY }, 'ModuleError: makerainbows is not a valid module', 'QUERY_INVALID'],
      [{ SearchString: 'tag=web json user | table user', Format: 'text', ...DAY }, 'Format "text" is not supported by the table renderer', 'FORMAT_NOT_SUPPORTED'],
      [{ SearchString: 'tag=web', Format: 'pdf', ...DAY }, 'Unknown format "pdf"', 'UNKNOWN_FORMAT'],
      [{ SearchString: 'tag=web', Format: 'archive', ...DAY }, 'Unknown format "archive": use json, csv or text', 'UNKNOWN_FORMAT'],
      [{ SearchString: 'tag=web' }, 'A time range is required', 'TIME_RANGE_REQUIRED'],
      [{ SearchString: 'tag=web', SearchStart: 'yesterday', SearchEnd: DAY.SearchEnd }, 'start must be an RFC3339', 'INVALID_TIMESTAMP'],
      [{ SearchString: 'tag=web', SearchStart: DAY.SearchEnd, SearchEnd: DAY.SearchStart }, 'end is before start', 'END_BEFORE_START'],
      [{ SearchString: 'tag=web', Duration: 'forever' }, 'duration must be', 'INVALID_DURATION'],
      [{ SearchString: 5, ...DAY }, 'SearchString must be a string', 'FIELD_NOT_A_STRING'],
      [{ ...DAY }, 'A query is required', 'QUERY_REQUIRED'],
    ];
    for (const [body, msg, code] of cases) {
      const r = await request(t.http).post('/api/search/direct').set(admin).send(body);
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { Error: expect.stringContaining(msg), Code: code } });
    }
  });

  it('(a+)+$ after a condensing module, the attack that froze every endpoint, finishes at once; backreferences are refused', async () => {
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: T('12:00:01'), Tag: 'evil30', Data: b64('a'.repeat(30) + '!') }])
      .expect(200);
    const started = Date.now();
    const r = await direct('tag=evil30 limit 10 | regex "(?P<x>(a+)+$)"');
    expect(r.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
    const refused = await direct('tag=evil30 regex "(?P<x>(a+)+)\\1$"');
    expect({ status: refused.status, error: refused.body.Error }).toEqual({ status: 400, error: expect.stringContaining('backreference') });
  });

  it('an expensive regular expression after a condensing module runs off the event loop and is stopped at the timeout', async () => {
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: T('12:00:02'), Tag: 'slowmerge', Data: b64('a'.repeat(40) + 'b') }])
      .expect(200);
    const started = Date.now();
    const pending = direct('tag=slowmerge limit 10 | regex "(?P<x>(a{1,30}){1,30}$)"').then((r) => ({ r, ms: Date.now() - started }));
    const pings: number[] = [];
    for (let i = 0; i < 5; i++) {
      const p0 = Date.now();
      await request(t.http).get('/api/test').expect(200);
      pings.push(Date.now() - p0);
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(Math.max(...pings)).toBeLessThan(1000);
    const { r, ms } = await pending;
    expect({ status: r.status, body: r.body }).toEqual({ status: 408, body: { Error: expect.stringContaining('Search timed out after 4000 ms'), Code: 'SEARCH_TIMED_OUT' } });
    expect(ms).toBeLessThan(10_000);
  });

  it('a catastrophic regular expression is stopped at the timeout with a clear error; the service keeps answering', async () => {
    const evil = 'a'.repeat(40) + 'b';
    const r0 = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: T('12:00:00'), Tag: 'evil', Data: b64(evil) }]);
    expect(r0.status).toBe(200);
    const started = Date.now();
    const pending = direct('tag=evil regex "(?P<x>(a{1,30}){1,30}$)"').then((r) => ({ r, ms: Date.now() - started }));
    // While the worker thread burns CPU, the HTTP event loop is free.
    const pings: number[] = [];
    for (let i = 0; i < 5; i++) {
      const p0 = Date.now();
      const ping = await request(t.http).get('/api/test');
      expect(ping.status).toBe(200);
      pings.push(Date.now() - p0);
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(Math.max(...pings)).toBeLessThan(1000);
    const { r, ms } = await pending;
    expect(r.status).toBe(408);
    expect(r.body).toEqual({ Error: expect.stringContaining('Search timed out after 4000 ms'), Code: 'SEARCH_TIMED_OUT' });
    expect(ms).toBeLessThan(10_000);
  });
});

describe('search endpoints (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let searchToken: Headers;
  let ingestToken: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    searchToken = (await createToken(t.http, admin, ['Search'])).headers;
    ingestToken = (await createToken(t.http, admin, ['Ingest'])).headers;
  });
  afterAll(() => t.close());

  it('POST /api/parse: header, URL or JSON; Sequence; GoodQuery false with ModuleIndex', async () => {
    const good = await request(t.http).post('/api/parse').set(admin).send({ SearchString: 'tag=gravwell limit 10', Sequence: 7 });
    expect(good.status).toBe(200);
    expect(good.body).toEqual({
      Sequence: 7,
      GoodQuery: true,
      ParsedQuery: 'tag=gravwell limit 10',
      RawQuery: 'tag=gravwell limit 10',
      ModuleIndex: 0,
      CollapsingIndex: 0,
      RenderModule: 'text',
      TimeZoomDisabled: false,
      Tags: ['gravwell'],
      ModuleHints: [{ Name: 'limit', ProducedEVs: null, ConsumedEVs: null, ResourcesNeeded: null, Condensing: true }],
      SideEffects: [],
    });
    const header = await request(t.http).post('/api/parse').set(searchToken).set('query', 'tag=a grep x | makerainbows');
    expect(header.status).toBe(200);
    expect(header.body).toEqual(expect.objectContaining({ Sequence: 0, GoodQuery: false, ModuleIndex: 1, ParseError: expect.stringContaining('makerainbows') }));
    const url = await request(t.http).post('/api/parse').set(admin).query({ query: 'tag=a count' });
    expect(url.body).toEqual(expect.objectContaining({ GoodQuery: true, RenderModule: 'text', CollapsingIndex: 0 }));
    const refused: Array<[Record<string, unknown>, string, ErrorCode]> = [
      [{}, 'A query is required', 'QUERY_REQUIRED'],
      [{ SearchString: 1 }, 'SearchString must be a string', 'FIELD_NOT_A_STRING'],
      [{ SearchString: 'x', Sequence: -1 }, 'Sequence must be a non-negative integer', 'INVALID_SEQUENCE'],
      [{ SearchString: 'x', Sequence: 'a' }, 'Sequence must be a non-negative integer', 'INVALID_SEQUENCE'],
    ];
    for (const [body, msg, code] of refused) {
      const r = await request(t.http).post('/api/parse').set(admin).send(body);
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { Error: expect.stringContaining(msg), Code: code } });
    }
    const noCap = await request(t.http).post('/api/parse').set(ingestToken).send({ SearchString: 'x' });
    expect(noCap.status).toBe(403);
  });

  it('GET /api/tags, /api/info/searchmodules, /api/info/rendermodules', async () => {
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([
        { TS: '2024-01-01T00:00:00Z', Tag: 'zeta', Data: b64('z') },
        { TS: '2024-01-01T00:00:00Z', Tag: 'alpha', Data: b64('a') },
      ]);
    const tags = await request(t.http).get('/api/tags').set(searchToken);
    expect(tags.status).toBe(200);
    expect(tags.body).toEqual(['alpha', 'default', 'zeta']);
    const sm = await request(t.http).get('/api/info/searchmodules').set(admin);
    expect(sm.status).toBe(200);
    expect(sm.body).toEqual(expect.arrayContaining([expect.objectContaining({ Name: 'grep', Info: expect.any(String), Examples: expect.any(Array) })]));
    const rm = await request(t.http).get('/api/info/rendermodules').set(admin);
    expect(rm.body.map((m: { Name: string }) => m.Name).sort()).toEqual(['chart', 'gauge', 'hex', 'numbercard', 'pointmap', 'raw', 'stackgraph', 'table', 'text', 'wordcloud']);
    for (const path of ['/api/tags', '/api/info/searchmodules', '/api/info/rendermodules']) {
      expect((await request(t.http).get(path).set(ingestToken)).status).toBe(403);
      expect((await request(t.http).get(path)).status).toBe(401);
    }
    expect((await request(t.http).post('/api/search/direct').set(ingestToken).send({ SearchString: 'x', Duration: '1h' })).status).toBe(403);
  });
});

describe('partitions and retention (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  const DAYMS = 86_400_000;

  beforeAll(async () => {
    t = await createTestApp({ retentionDays: 30 });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const partitions = async () =>
    (
      await db.query(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'block' ORDER BY 1`)
    ).rows.map((r) => r.relname as string);

  it('stores entries of several days in day partitions and drops old partitions (never rows)', async () => {
    const now = Date.now();
    // Inside the 30 kept days today; retention then runs as if ten days had passed.
    const ages = [25, 22, 2, 1];
    const entries = ages.map((d) => ({ TS: new Date(now - d * DAYMS).toISOString(), Tag: 'days', Data: b64(`age ${d}`) }));
    const r = await request(t.http).put('/api/ingest/json').set(admin).send(entries);
    expect(r.body).toEqual({ Count: 4, Size: 22 });
    const name = (d: number) => `block_p${new Date(now - d * DAYMS).toISOString().slice(0, 10).replace(/-/g, '')}`;
    expect(await partitions()).toEqual(ages.map(name).sort());
    // Blocks are selected by tag and time from their rows: an index on (tag, hi) in every partition.
    const idx = await db.query(`SELECT indexdef FROM pg_indexes WHERE tablename = $1`, [name(2)]);
    expect(idx.rows.map((x) => x.indexdef).join()).toMatch(/USING btree \(tag, hi\)/);
    const all = { SearchStart: new Date(now - 50 * DAYMS).toISOString(), SearchEnd: new Date(now + 1000).toISOString() };
    const before = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: 'tag=days', ...all });
    expect(before.body.map((e: { Data: string }) => txt(e.Data))).toEqual(['age 1', 'age 2', 'age 22', 'age 25']);

    const dropped = await t.app.get(IndexerService).applyRetention(new Date(now + 10 * DAYMS));
    expect(dropped.sort()).toEqual([name(22), name(25)].sort());
    expect(await partitions()).toEqual([name(1), name(2)].sort());
    const after = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: 'tag=days', ...all });
    expect(after.body.map((e: { Data: string }) => txt(e.Data))).toEqual(['age 1', 'age 2']);
    // Ingest into a dropped day recreates its partition.
    const again = await request(t.http).put('/api/ingest/json').set(admin).send([entries[0]]);
    expect(again.status).toBe(200);
    expect(await partitions()).toContain(name(25));
    // A partition dropped by hand behind the service's back: the COPY fails once, the
    // partition is recreated and the batch stored whole.
    await db.query(`DROP TABLE ${name(1)}`);
    const retried = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([entries[3], { ...entries[3], Data: b64('age 1 again') }]);
    expect(retried.body).toEqual({ Count: 2, Size: 16 });
    const inDay1 = (await storedEntries(db)).filter((e) => Math.floor(e.ts / 1000 / DAYMS) === Math.floor((now - DAYMS) / DAYMS));
    expect(inDay1.map((e) => e.data.toString()).sort()).toEqual(['age 1', 'age 1 again']);
  });
});

describe('search executor (e2e, used by persistent searches)', () => {
  let t: TestApp;
  let admin: Headers;
  let secondUrl: string;

  beforeAll(async () => {
    secondUrl = await createTestDatabase();
    const mainUrl = await createTestDatabase();
    t = await createTestApp({ indexerUrls: [mainUrl, secondUrl] }, mainUrl);
    admin = await asAdmin(t.http);
    const entries = Array.from({ length: 30 }, (_, i) => ({ TS: new Date(Date.UTC(2024, 0, 1 + (i % 3), 0, i)).toISOString(), Tag: 'seq', Data: b64(`n=${i}`) }));
    for (let i = 0; i < entries.length; i += 3) {
      expect(
        (
          await request(t.http)
            .put('/api/ingest/json')
            .set(admin)
            .send(entries.slice(i, i + 3))
        ).status,
      ).toBe(200);
    }
  });
  afterAll(() => t.close());

  const range = { start: new Date('2024-01-01T00:00:00Z'), end: new Date('2024-01-05T00:00:00Z') };

  it('streams entries to the sink in render order (newest first over both indexers) and reports progress', async () => {
    const exec = t.app.get(SearchExecutor);
    const seen: number[] = [];
    const progress: SearchProgress[] = [];
    const run = await exec.run(
      'tag=seq',
      range,
      { entries: (b) => void seen.push(...b.map((e) => e.ts)) },
      { signal: new AbortController().signal, onProgress: (p) => progress.push(p), retainEntries: false },
    );
    expect(seen).toHaveLength(30);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(run.result).toEqual({ kind: 'entries', EntryCount: 30, Entries: [] });
    // Every scan read down to the start of the range.
    expect(run.progress).toEqual({ entriesScanned: 30, bytesScanned: 10 * 3 + 20 * 4, finished: true, position: range.start });
    expect(progress[progress.length - 1].finished).toBe(true);
    const condensed = await exec.run('tag=seq count', range, { entries: () => undefined }, { signal: new AbortController().signal });
    expect(condensed.compiled.streaming).toBe(false);
    expect(condensed.result.kind).toBe('entries');
  });

  it('throws clear AppErrors: bad query 400, cancelled, timeout 408', async () => {
    const exec = t.app.get(SearchExecutor);
    const sink = { entries: () => undefined };
    await expect(exec.run('tag=seq nosuchmodule', range, sink, { signal: new AbortController().signal })).rejects.toMatchObject({
      status: 400,
      message: 'ModuleError: nosuchmodule is not a valid module',
    });
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '2024-01-02T12:00:00Z', Tag: 'evil', Data: b64('a'.repeat(40) + 'b') }]);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    await expect(exec.run('tag=evil regex "(?P<x>(a{1,30}){1,30}$)"', range, sink, { signal: ac.signal })).rejects.toMatchObject({ status: 400, message: 'Search was cancelled' });
    await expect(exec.run('tag=evil regex "(?P<x>(a{1,30}){1,30}$)"', range, sink, { signal: new AbortController().signal, timeoutMs: 300 })).rejects.toMatchObject({
      status: 408,
      message: expect.stringContaining('Search timed out after 300 ms'),
    });
  });

  it('an unreachable indexer: searches answer 503, ingest uses the other indexer', async () => {
    const down = await createTestApp({ indexerUrls: [t.databaseUrl, 'postgres://nobody:x@127.0.0.1:1/none'] }, t.databaseUrl);
    try {
      const h = await asAdmin(down.http);
      const s = await request(down.http).post('/api/search/direct').set(h).send({ SearchString: 'tag=seq', Duration: '1h' });
      expect(s.status).toBe(503);
      expect(s.body).toEqual({ Error: 'Indexer 127.0.0.1:1/none is unavailable', Code: 'INDEXER_UNAVAILABLE', RequestId: expect.any(String) });
      for (let i = 0; i < 2; i++) {
        const r = await request(down.http)
          .put('/api/ingest/json')
          .set(h)
          .send([{ TS: '2024-01-03T00:00:00Z', Tag: 'seq', Data: b64('x') }]);
        expect(r.status).toBe(200);
      }
      expect((await request(down.http).head('/api/ingest/test').set(h)).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
