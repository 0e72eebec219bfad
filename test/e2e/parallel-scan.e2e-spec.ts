import { Client } from 'pg';
import request from 'supertest';
import { IndexerService, NewEntry } from '../../src/indexer/indexer.service';
import { MIN_SPLIT_BYTES } from '../../src/indexer/scan.protocol';
import { storedEntries } from '../setup/blocks';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, Headers } from '../setup/auth';
import { watchScanWorkers } from '../setup/scan-workers';

const DAY = 86_400_000;

/** Order-free queries over enough data split the blocks over several workers by shard; results must not change. */
describe('parallel scans of many blocks (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  /** what the blocks hold, read back directly */
  let stored: Array<{ ts: number; data: string }>;
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
    const tag = (await t.app.get(IndexerService).tagIds(['big'], 1)).get('big')!;
    // ~15 MiB in blocks spread over the shards: well over MIN_SPLIT_BYTES.
    const entries: NewEntry[] = Array.from({ length: 80_000 }, (_, i) => ({
      ts: day * DAY * 1000 + i * 500_000,
      tag,
      src: '10.0.0.1',
      data: Buffer.from(`status=${200 + (i % 4)} user=u${i % 13} ${'x'.repeat(160)}`),
      evs: null,
    }));
    for (let i = 0; i < entries.length; i += 10_000) await t.app.get(IndexerService).store(entries.slice(i, i + 10_000));
    stored = (await storedEntries(db)).filter((e) => e.tag === tag).map((e) => ({ ts: e.ts, data: e.data.toString() }));
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('the data is large enough to be split, in blocks of several shards', async () => {
    const { raw, shards } = (await db.query(`SELECT sum(raw)::int AS raw, count(DISTINCT shard)::int AS shards FROM block`)).rows[0];
    expect(raw).toBeGreaterThan(MIN_SPLIT_BYTES);
    expect(shards).toBeGreaterThan(3);
    expect(stored).toHaveLength(80_000);
  });

  it('count by: three workers, every entry counted exactly once', async () => {
    const before = scans.jobs;
    const res = await table('tag=big kv status | count by status | table status count');
    expect(scans.jobs - before).toBe(3);
    const expected: Record<string, string> = {};
    for (const e of stored) {
      const s = /status=(\d+)/.exec(e.data)![1];
      expected[s] = String(Number(expected[s] ?? 0) + 1);
    }
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

  it('grep | count and limit agree with the stored entries; streaming queries stay one ordered scan per indexer', async () => {
    const res = await table('tag=big grep "user=u7 " | count | table count');
    const n = stored.filter((e) => e.data.includes('user=u7 ')).length;
    expect(res.Rows[0].Row[0]).toBe(String(n));
    const before = scans.jobs;
    const newest = await request(t.http)
      .post('/api/search/direct')
      .set(admin)
      .send({ SearchString: 'tag=big limit 3', Format: 'json', ...range });
    expect(scans.jobs - before).toBe(3);
    const last = new Date(Math.max(...stored.map((e) => e.ts)) / 1000);
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
