import { Client } from 'pg';
import { IndexerService, NewEntry } from '../../src/indexer/indexer.service';
import { MAX_TS_US } from '../../src/ingest/timestamps';
import { createTestApp, TestApp } from '../setup/app';

/** Binary COPY is hand-encoded: every field kind and edge goes through PostgreSQL and back. */
describe('ingest storage through binary COPY (e2e, real PostgreSQL)', () => {
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
    const rows = (await db.query(`SELECT (extract(epoch FROM ts) * 1000000)::int8 AS us, tag, src, data, evs FROM entry ORDER BY ts`)).rows;
    expect(rows.map((r) => Number(r.us))).toEqual(entries.map((e) => e.ts));
    expect(rows.map((r) => r.src)).toEqual(entries.map((e) => e.src));
    expect(rows.map((r) => (r.data as Buffer).equals(entries[rows.indexOf(r)].data))).toEqual([true, true, true, true]);
    expect(rows.map((r) => r.evs)).toEqual([null, null, entries[2].evs, entries[3].evs]);
  });
});
