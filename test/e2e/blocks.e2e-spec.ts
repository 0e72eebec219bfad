import { Client } from 'pg';
import request from 'supertest';
import { BlockCompaction } from '../../src/indexer/block-compaction';
import { blockFilter } from '../../src/indexer/block-scan';
import { DayScan } from '../../src/indexer/day-scan';
import { Entry } from '../../src/query';
import { SMALL_BLOCK_BYTES, SMALL_BLOCK_ENTRIES, usesLz4Module } from '../../src/indexer/block-codec';
import { IndexerService, NewEntry } from '../../src/indexer/indexer.service';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, Headers } from '../setup/auth';
import { storedEntries } from '../setup/blocks';
import { createTestDatabase } from '../setup/db';
import { lz4Module } from '../../src/indexer/lz4-wasm';

const DAY = 86_400_000;
const RANGE = { SearchStart: '2024-01-01T00:00:00Z', SearchEnd: '2024-02-01T00:00:00Z' };
const txt = (b64: string) => Buffer.from(b64, 'base64').toString();

async function searchAll(t: TestApp, h: Headers, query: string): Promise<Array<{ TS: string; Data: string; Tag: string; SRC: string; Enumerated?: unknown }>> {
  const r = await request(t.http)
    .post('/api/search/direct')
    .set(h)
    .send({ SearchString: query, Format: 'json', ...RANGE });
  expect(r.status).toBe(200);
  return r.body;
}

/** The layout before blocks: a day partition of `entry` filled with rows, as an older version left it. */
async function writeLegacyDay(db: Client, day: number, tag: number, rows: number): Promise<void> {
  const d = new Date(day * DAY).toISOString().slice(0, 10);
  const next = new Date((day + 1) * DAY).toISOString().slice(0, 10);
  await db.query(`CREATE TABLE entry_p${d.replace(/-/g, '')} PARTITION OF entry FOR VALUES FROM ('${d}') TO ('${next}')`);
  await db.query(
    `INSERT INTO entry (ts, tag, src, data, evs)
     SELECT $1::timestamptz + i * interval '1 second', $2, '10.0.0.' || (i % 3), convert_to('legacy ' || $3::text || ' ' || i, 'UTF8'),
            CASE WHEN i % 10 = 0 THEN jsonb_build_array(jsonb_build_array('k', i)) END
       FROM generate_series(0, $4::int - 1) i`,
    [d, tag, d, rows],
  );
}

describe('upgrade from the row layout (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  let url: string;

  beforeAll(async () => {
    url = await createTestDatabase();
    db = new Client({ connectionString: url });
    await db.connect();
    // The migrated database has the old `entry` table (its migration made it); fill two days.
    await db.query(`INSERT INTO tag (id, name) VALUES (1, 'old') ON CONFLICT DO NOTHING`);
    const day = Date.UTC(2024, 0, 10) / DAY;
    await writeLegacyDay(db, day, 1, 3000);
    await writeLegacyDay(db, day + 1, 1, 1500);
    t = await createTestApp({}, url);
    admin = await asAdmin(t.http);
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('finds every entry the old layout stored exactly once, with its time, source and EVs, and drops the old table', async () => {
    const found = await searchAll(t, admin, 'tag=old');
    expect(found).toHaveLength(4500);
    const data = found.map((e) => txt(e.Data));
    expect(new Set(data).size).toBe(4500);
    // Newest first, across the converted days.
    expect(found[0].TS).toBe('2024-01-11T00:24:59.000000Z');
    expect(data[0]).toBe('legacy 2024-01-11 1499');
    expect(found.at(-1)!.TS).toBe('2024-01-10T00:00:00.000000Z');
    const e10 = found.find((e) => txt(e.Data) === 'legacy 2024-01-10 10')!;
    expect(e10.SRC).toBe('10.0.0.1');
    // 10, 100-109 and 1000-1099 of that day.
    const tens = Array.from({ length: 3000 }, (_, i) => String(i)).filter((i) => i.startsWith('10')).length;
    expect((await searchAll(t, admin, 'tag=old grep "legacy 2024-01-10 10" | count | table count')) as unknown).toMatchObject({ Rows: [{ Row: [String(tens)] }] });
    expect((await db.query(`SELECT to_regclass('entry') AS t`)).rows[0].t).toBeNull();
    const stored = await storedEntries(db);
    expect(stored).toHaveLength(4500);
    expect(stored.find((e) => e.data.toString() === 'legacy 2024-01-10 10')!.evs).toEqual([['k', 10]]);
  });

  it('a restart on the converted data changes nothing', async () => {
    await t.close();
    t = await createTestApp({}, url);
    admin = await asAdmin(t.http);
    expect(await searchAll(t, admin, 'tag=old count | table count')).toMatchObject({ Rows: [{ Row: ['4500'] }] });
  });
});

describe('block compaction (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  let compaction: BlockCompaction;
  let ix: IndexerService;

  const blockCount = async () => Number((await db.query('SELECT count(*) AS n FROM block')).rows[0].n);
  const batch = (tag: number, from: number, n: number): NewEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      // Out of order across batches: each batch spreads over two days.
      ts: Date.UTC(2024, 0, 5) * 1000 + (((from + i) * 7919) % 172_800) * 1_000_000,
      tag,
      src: `10.1.0.${(from + i) % 4}`,
      data: Buffer.from(`small ${from + i} status=${200 + ((from + i) % 3)}`),
      evs: i % 5 === 0 ? [['n', from + i]] : null,
    }));

  beforeAll(async () => {
    t = await createTestApp({ compactionIntervalMs: 0 });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    compaction = t.app.get(BlockCompaction);
    ix = t.app.get(IndexerService);
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('decodes blocks with the WebAssembly decoder, here and in the scan workers it starts', () => {
    expect(usesLz4Module()).toBe(true);
    expect(lz4Module()).toBeInstanceOf(WebAssembly.Module); // what startScanWorker hands every worker
  });

  it('merges the small blocks of small batches into few, and every query answers the same', async () => {
    const [a, b] = [...(await ix.tagIds(['hecish', 'other'], 1)).values()];
    for (let k = 0; k < 200; k++) await ix.store(batch(k % 3 ? a : b, k * 5, 5));
    const before = await blockCount();
    expect(before).toBeGreaterThan(250); // 200 batches of 5 entries over two days: most make two blocks
    const queries = ['tag=hecish', 'tag=* grep "status=201"', 'tag=hecish kv status | count by status | table status count', 'tag=other count | table count'];
    const answers = await Promise.all(queries.map((q) => searchAll(t, admin, q)));
    let rounds = 0;
    while ((await compaction.compactNow()).merged > 0) rounds++;
    expect(rounds).toBeGreaterThan(0);
    const after = await blockCount();
    // One block per day, tag and shard at most (all of it fits in one block).
    expect(after).toBeLessThanOrEqual(2 * 2 * 16);
    expect(after).toBeLessThan(before / 4);
    expect(await Promise.all(queries.map((q) => searchAll(t, admin, q)))).toEqual(answers);
    const stored = await storedEntries(db);
    expect(stored).toHaveLength(1000);
    expect(new Set(stored.map((e) => e.data.toString())).size).toBe(1000);
    // Nothing left to merge: a round does nothing.
    expect(await compaction.compactNow()).toEqual({ merged: 0, written: 0 });
    const small = Number((await db.query(`SELECT count(*) AS n FROM block WHERE raw < ${SMALL_BLOCK_BYTES} AND n < ${SMALL_BLOCK_ENTRIES}`)).rows[0].n);
    expect(small).toBe(after);
  });

  it('searches running while compactions commit see every entry exactly once', async () => {
    const [c] = [...(await ix.tagIds(['busy'], 1)).values()];
    let stored = 0;
    for (let round = 0; round < 6; round++) {
      for (let k = 0; k < 40; k++) await ix.store(batch(c, 10_000 + stored + k * 3, 3));
      stored += 120;
      const counts = await Promise.all([
        compaction.compactNow(),
        ...Array.from({ length: 6 }, () => searchAll(t, admin, 'tag=busy count | table count')),
        ...Array.from({ length: 2 }, () => searchAll(t, admin, 'tag=busy')),
      ]);
      for (const r of counts.slice(1, 7)) expect(r).toMatchObject({ Rows: [{ Row: [String(stored)] }] });
      for (const r of counts.slice(7) as unknown as Array<unknown[]>) expect(r).toHaveLength(stored);
    }
  });

  it('idxStats reports entries, blocks, stored and raw bytes per day partition', async () => {
    const res = await request(t.http).get('/api/stats/idxStats').set(admin).expect(200);
    const stats = Object.values(res.body as Record<string, { IndexStats: Array<{ Stats: Array<Record<string, number | string | boolean>> }> }>)[0].IndexStats[0].Stats;
    const rows = (await db.query(`SELECT tableoid::regclass::text AS part, count(*)::int AS blocks, sum(n)::int AS entries, sum(raw)::int AS raw FROM block GROUP BY 1 ORDER BY 1`))
      .rows;
    expect(stats.map((s) => [s.ID, s.Blocks, s.Entries, s.RawBytes, s.Estimated])).toEqual(rows.map((r) => [r.part, r.blocks, r.entries, r.raw, false]));
    for (const s of stats) expect(s.Data).toBeGreaterThan(0);
  });
});

describe('newest first over blocks whose times overlap (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;
  let tag: number;
  const day = Date.UTC(2024, 0, 20) / DAY;
  /** every stored time, newest first */
  let want: number[];

  beforeAll(async () => {
    t = await createTestApp({ compactionIntervalMs: 0 });
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    const ix = t.app.get(IndexerService);
    tag = (await ix.tagIds(['ov'], 1)).get('ov')!;
    // 60 batches, each spread over the whole day: every block overlaps every other. One batch
    // holds 400 entries of the very same microsecond between one at each end of the day, so the
    // block rows (which spread entries evenly over a block's range) underestimate that instant.
    let seed = 7;
    const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const same = day * DAY * 1000 + 43_200_000_000;
    for (let b = 0; b < 60; b++) {
      const n = b === 30 ? 400 : 50;
      await ix.store(
        Array.from({ length: n }, (_, i) => ({
          ts: b !== 30 ? day * DAY * 1000 + Math.floor(rnd() * DAY) * 1000 : i === 0 ? day * DAY * 1000 : i === 1 ? (day + 1) * DAY * 1000 - 1 : same,
          tag,
          src: '',
          data: Buffer.from(`ov ${b} ${i} ${'y'.repeat(30)}`),
          evs: null,
        })),
      );
    }
    want = (await storedEntries(db)).map((e) => e.ts).sort((x, y) => y - x);
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const scanDay = async (budgets?: { merge: number; windowTarget: number; windowMax: number }) => {
    const client = new Client({ connectionString: t.databaseUrl });
    await client.connect();
    const got: Entry[] = [];
    const watermarks: Array<[number, number]> = [];
    try {
      const filter = blockFilter({ grep: [] }, day * DAY * 1000, (day + 1) * DAY * 1000);
      await new DayScan(
        {
          client,
          tagIds: [tag],
          ordered: true,
          filter,
          batchSize: 100,
          budgets,
          emit: async (entries, watermark) => {
            got.push(...entries);
            watermarks.push([entries.at(-1)!.ts, watermark]);
          },
        },
        day,
      ).run();
    } finally {
      await client.end();
    }
    return { got, watermarks };
  };

  it('a search merges them newest first', async () => {
    const found = await searchAll(t, admin, 'tag=ov');
    expect(found).toHaveLength(want.length);
    const ts = found.map((e) => Date.parse(e.TS));
    expect(ts).toEqual(want.map((us) => Math.floor(us / 1000)));
  });

  it('past the memory bound, reads the day in time windows: same order, each entry once, watermarks never ahead', async () => {
    const merged = await scanDay();
    // Budgets far below the data: every window is read from the blocks that overlap it, some
    // halved after reading too much, the 400 equal times streamed as one microsecond.
    const proto = DayScan.prototype as unknown as { readWindow(meta: unknown, a: number, b: number): Promise<Entry[] | null> };
    const spy = jest.spyOn(proto, 'readWindow');
    const windowed = await scanDay({ merge: 1, windowTarget: 4000, windowMax: 12_000 });
    const calls = spy.mock.calls.map(([, a, b], i) => ({ width: b - a, halved: spy.mock.results[i].value }));
    spy.mockRestore();
    const results = await Promise.all(calls.map((c) => c.halved));
    expect(calls.length).toBeGreaterThan(10);
    expect(results.filter((r) => r === null).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.width === 1)).toBe(true);
    for (const run of [merged, windowed]) {
      expect(run.got.map((e) => e.ts)).toEqual(want);
      expect(new Set(run.got.map((e) => e.data.toString())).size).toBe(want.length);
      for (const [last, watermark] of run.watermarks) expect(watermark).toBeLessThanOrEqual(last);
    }
  });
});
