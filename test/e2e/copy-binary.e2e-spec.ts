import { Client } from 'pg';
import { IndexerService, NewEntry } from '../../src/indexer/indexer.service';
import { MAX_TS_US } from '../../src/ingest/timestamps';
import { createTestApp, TestApp } from '../setup/app';
import { storedEntries } from '../setup/blocks';

/** Blocks go in through a hand-encoded binary COPY: every field kind and edge goes through PostgreSQL and back. */
describe('block storage through binary COPY (e2e, real PostgreSQL)', () => {
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    t = await createTestApp();
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('stores timestamps (1970, before and after 2000, 9999, µs), tags, sources, bytes and EVs exactly', async () => {
    const entries: NewEntry[] = [
      { ts: 1, tag: 0, src: '10.0.0.1', data: Buffer.from([0, 255, 10, 92, 120]), evs: null },
      { ts: Date.UTC(1999, 11, 31, 23, 59, 59) * 1000 + 999_999, tag: 0, src: '', data: Buffer.alloc(0), evs: [] },
      {
        ts: Date.UTC(2000, 0, 1) * 1000,
        tag: 0,
        src: 'hôte-é',
        data: Buffer.from('x'.repeat(70_000)),
        evs: [
          ['user', 'bob'],
          ['n', 42],
          ['raw', { b64: 'AP8=' }],
        ],
      },
      { ts: MAX_TS_US, tag: 0, src: '::1', data: Buffer.from('last'), evs: [['q', 'quote " and \\ backslash']] },
    ];
    await t.app.get(IndexerService).store(entries);
    const rows = (await storedEntries(db)).sort((a, b) => a.ts - b.ts);
    expect(rows.map((r) => r.ts)).toEqual(entries.map((e) => e.ts));
    expect(rows.map((r) => r.src)).toEqual(entries.map((e) => e.src));
    expect(rows.map((r) => r.data.equals(entries[rows.indexOf(r)].data))).toEqual([true, true, true, true]);
    expect(rows.map((r) => r.evs)).toEqual([null, null, entries[2].evs, entries[3].evs]);
    // Each day its own block row, whose columns say what the body holds (in the right day partition).
    const blocks = (
      await db.query(
        `SELECT tableoid::regclass::text AS part, (extract(epoch FROM lo) * 1000000)::int8 AS lo, (extract(epoch FROM hi) * 1000000)::int8 AS hi, n, raw FROM block ORDER BY lo`,
      )
    ).rows;
    expect(blocks.map((b) => [Number(b.lo), Number(b.hi), b.n, b.raw])).toEqual(entries.map((e) => [e.ts, e.ts, 1, e.data.length]));
    expect(blocks.map((b) => b.part)).toEqual(['block_p19700101', 'block_p19991231', 'block_p20000101', 'block_p99991231']);
    // Bodies are stored as they are: no PostgreSQL compression on top of the service's.
    const storage = (
      await db.query(`SELECT DISTINCT attstorage FROM pg_attribute WHERE attname = 'body' AND attrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'block'::regclass)`)
    ).rows;
    expect(storage).toEqual([{ attstorage: 'e' }]);
  });
});
