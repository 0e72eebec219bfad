import request from 'supertest';
import { SearchExecutor, SearchProgress } from '../../src/indexer/search-executor';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, Headers } from '../setup/auth';

const DAY = 86_400_000;
const START = Date.parse('2024-04-01T00:00:00Z');
const RANGE = { SearchStart: new Date(START).toISOString(), SearchEnd: new Date(START + 3 * DAY).toISOString() };

/** How far a search is (OverviewStats.SearchPosition) comes from the scans' real position. */
describe('search progress through the time range (e2e)', () => {
  let t: TestApp;
  let admin: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    // 3 days x 2,500 entries: several fetches of 1,000 rows per day.
    for (let d = 0; d < 3; d++) {
      const body = Array.from({ length: 2500 }, (_, i) => ({
        TS: new Date(START + d * DAY + i * 30_000).toISOString(),
        Tag: 'prog',
        Data: Buffer.from(`d${d} i${i}`).toString('base64'),
      }));
      await request(t.http).put('/api/ingest/json').set(admin).send(body).expect(200);
    }
  });
  afterAll(() => t.close());

  const positions = async (query: string): Promise<number[]> => {
    const seen: SearchProgress[] = [];
    await t.app.get(SearchExecutor).run(
      query,
      { start: new Date(RANGE.SearchStart), end: new Date(RANGE.SearchEnd) },
      { entries: () => undefined },
      {
        signal: new AbortController().signal,
        onProgress: (p) => seen.push(p),
      },
    );
    return seen.filter((p) => p.position).map((p) => p.position!.getTime());
  };

  it('moves from the end of the range to its start as a newest-first scan reads', async () => {
    const ps = await positions('tag=prog');
    expect(ps.length).toBeGreaterThan(3);
    expect(ps.every((p, i) => i === 0 || p <= ps[i - 1])).toBe(true);
    expect(ps.some((p) => p > START && p < START + 3 * DAY)).toBe(true);
    expect(ps[ps.length - 1]).toBe(START);
  });

  it('an order-free scan reports whole days only, never ahead of what it read', async () => {
    const ps = await positions('tag=prog count');
    expect(ps.every((p, i) => i === 0 || p <= ps[i - 1])).toBe(true);
    expect(ps.every((p) => (p - START) % DAY === 0)).toBe(true);
    expect(ps[ps.length - 1]).toBe(START);
  });

  it('a finished search reports the start of its range as its position', async () => {
    const launch = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(admin)
      .send({ SearchString: 'tag=prog', ...RANGE })
      .expect(200);
    let stats: Record<string, unknown> = {};
    for (let i = 0; i < 300 && stats.Finished !== true; i++) {
      stats = (await request(t.http).get(`/api/searchctrl/${launch.body.SearchID}/stats`).set(admin).expect(200)).body;
      if (stats.Finished !== true) await new Promise((r) => setTimeout(r, 50));
    }
    expect(stats.SearchPosition).toBe('2024-04-01T00:00:00.000Z');
  });
});
