import { Client } from 'pg';
import request from 'supertest';
import { createPartitionSql } from '../../src/indexer/indexer.schema';
import { MIN_SPLIT_BLOCKS } from '../../src/indexer/scan.protocol';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, Headers } from '../setup/auth';
import { watchScanWorkers } from '../setup/scan-workers';

const DAY = 86_400_000;

/** Order-free queries split large partitions over several workers; results must not change. */
describe('parallel scans of large partitions (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  const scans = watchScanWorkers();
  const day = Math.floor(Date.now() / DAY) - 1;
  const range = { SearchStart: new Date(day * DAY).toISOString(), SearchEnd: new Date((day + 1) * DAY).toISOString() };
  const table = async (q: string) => {
    const r = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: q, Format: 'json', ...range });
    expect(r.status).toBe(200);
    return r.body as { Headers: string[]; Rows: Array<{ Row: string[] }> };
  };

  beforeAll(async () => {
    t = await createTestApp({ scanParallelism: 3 });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    await db.query(`INSERT INTO tag (id, name) SELECT max(id) + 1, 'big' FROM tag ON CONFLICT (name) DO NOTHING`);
    await db.query(createPartitionSql(day));
    // ~16 MiB: well over MIN_SPLIT_BLOCKS pages of 8 KiB.
    await db.query(
      `INSERT INTO entry (ts, tag, src, data)
       SELECT to_timestamp($1::float8 / 1000) + (i * interval '1 second') / 2, (SELECT id FROM tag WHERE name = 'big'), '10.0.0.1',
              convert_to('status=' || (200 + i % 4) || ' user=u' || (i % 13) || ' ' || repeat('x', 160), 'UTF8')
         FROM generate_series(0, 79999) i`,
      [day * DAY],
    );
    await db.query('ANALYZE entry');
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('the partition is large enough to be split', async () => {
    const blocks = (await db.query(`SELECT pg_relation_size('entry_p' || to_char(to_timestamp($1::float8 / 1000) AT TIME ZONE 'UTC', 'YYYYMMDD')) / 8192 AS n`, [day * DAY]))
      .rows[0].n;
    expect(Number(blocks)).toBeGreaterThan(MIN_SPLIT_BLOCKS);
  });

  it('count by: three workers, every entry counted exactly once', async () => {
    const before = scans.jobs;
    const res = await table('tag=big kv status | count by status | table status count');
    expect(scans.jobs - before).toBe(3);
    const sql = (await db.query(`SELECT substring(convert_from(data, 'UTF8') from 'status=(\\d+)') AS s, count(*)::int AS n FROM entry GROUP BY 1`)).rows;
    const expected = Object.fromEntries(sql.map((r) => [r.s, String(r.n)]));
    expect(Object.fromEntries(res.Rows.map((r) => [r.Row[0], r.Row[1]]))).toEqual(expected);
    // A range without large partitions is not split (the sizing is all it costs).
    const other = scans.jobs;
    const empty = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: 'tag=big count | table count', Format: 'json', SearchStart: new Date((day - 2) * DAY).toISOString(), SearchEnd: new Date(day * DAY).toISOString() });
    expect(empty.status).toBe(200);
    expect(scans.jobs - other).toBe(1);
  });

  it('grep | count and limit agree with SQL; streaming queries stay one ordered scan per indexer', async () => {
    const res = await table('tag=big grep "user=u7 " | count | table count');
    const n = (await db.query(`SELECT count(*)::int AS n FROM entry WHERE position('user=u7 '::bytea in data) > 0`)).rows[0].n;
    expect(res.Rows[0].Row[0]).toBe(String(n));
    const before = scans.jobs;
    const newest = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: 'tag=big limit 3', Format: 'json', ...range });
    expect(scans.jobs - before).toBe(3);
    const last = (await db.query(`SELECT max(ts) AS ts FROM entry`)).rows[0].ts as Date;
    expect((newest.body as Array<{ TS: string }>).map((e) => e.TS.slice(0, 19))).toEqual([0, 500, 1000].map((ms) => new Date(last.getTime() - ms).toISOString().slice(0, 19)));
    const streamed = scans.jobs;
    const text = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: 'tag=big grep "user=u7 " | text', Format: 'text', ...range });
    expect(text.status).toBe(200);
    expect(scans.jobs - streamed).toBe(1);
    expect(text.text.split('\n').filter(Boolean)).toHaveLength(n);
  });
});
