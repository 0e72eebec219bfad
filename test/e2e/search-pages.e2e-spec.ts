/**
 * Renderer pages are cut by bytes as well as entries and stream from the render store (issue 32,
 * item 6): a page over a search of large entries used to be read, decoded and parsed whole on the
 * event loop (three pages over 400 entries of 1 MiB took another user's whoami to 23-35 s, and a
 * page over about 512 MB failed with ERR_STRING_TOO_LONG even for its owner).
 */
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';
import { describeReport, measure } from '../setup/event-loop';

const RANGE = { SearchStart: '2024-05-01T00:00:00Z', SearchEnd: '2024-05-02T00:00:00Z' };
const MiB = 1024 * 1024;
const ENTRIES = 40;

async function finished(http: Server, h: Headers, id: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const r = await request(http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
    if (r.body.Finished === true) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`search ${id} did not finish`);
}

describe('renderer pages of large entries', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let id: string;
  const tag = `bigpages${process.pid}`;
  /** Entry i: 1 MiB of one letter, so a page's entries tell which they are. */
  const data = (i: number) => Buffer.alloc(MiB, 97 + (i % 26));
  const page = (q: string) => request(t.http).get(`/api/searchctrl/${id}/renderer/text?${q}`).set(owner.headers);

  beforeAll(async () => {
    t = await createTestApp({ renderPageMaxBytes: 3 * MiB } as Record<string, unknown>);
    const admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin);
    other = await createUser(t.http, admin);
    for (let from = 0; from < ENTRIES; from += 5) {
      const batch = Array.from({ length: 5 }, (_, k) => ({
        TS: new Date(Date.parse('2024-05-01T01:00:00Z') + (from + k) * 1000).toISOString(),
        Tag: tag,
        Data: data(from + k).toString('base64'),
      }));
      await request(t.http).put('/api/ingest/json').set(admin).send(batch).expect(200);
    }
    const l = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(owner.headers)
      .send({ SearchString: `tag=${tag}`, ...RANGE, Background: true })
      .expect(200);
    id = l.body.SearchID as string;
    await finished(t.http, owner.headers, id);
  }, 120_000);
  afterAll(() => t.close());

  it('cut a page at RENDER_PAGE_MAX_BYTES (at least one entry) and say where it stopped', async () => {
    const first = await page('first=0&last=10000').expect(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    // Each stored entry is about 1.4 MB of JSON (base64): two fit in 3 MiB, three do not.
    expect(first.body.Entries).toHaveLength(2);
    expect(first.body).toEqual(
      expect.objectContaining({ SearchID: id, EntryCount: ENTRIES, Finished: true, AdditionalEntries: true, EntryRange: expect.objectContaining({ First: 0, Last: 2 }) }),
    );
    expect(first.body.Tags).toEqual({ [tag]: expect.any(Number) });
    // Newest first: entry 39, then 38.
    expect(first.body.Entries.map((e: { Data: string }) => Buffer.from(e.Data, 'base64').equals(data(39 - 0)))).toEqual([true, false]);
    expect(Buffer.from(first.body.Entries[1].Data, 'base64').equals(data(38))).toBe(true);
    const next = await page('first=2&last=10000').expect(200);
    expect(next.body.EntryRange).toEqual(expect.objectContaining({ First: 2, Last: 4 }));
    expect(Buffer.from(next.body.Entries[0].Data, 'base64').equals(data(37))).toBe(true);
    // The last page says that nothing more remains.
    const last = await page(`first=${ENTRIES - 1}&last=10000`).expect(200);
    expect([last.body.Entries.length, last.body.AdditionalEntries, last.body.EntryRange.Last]).toEqual([1, false, ENTRIES]);
    // Pages by time range are cut the same way.
    const byTime = await page('first=0&last=10000&start=2024-05-01T01:00:00Z&end=2024-05-01T01:00:10Z').expect(200);
    expect([byTime.body.Entries.length, byTime.body.AdditionalEntries, byTime.body.EntryRange.Last]).toEqual([2, true, 2]);
    expect(Buffer.from(byTime.body.Entries[0].Data, 'base64').equals(data(9))).toBe(true);
  });

  it("do not hold the event loop: another user's whoami stays fast while three whole-range pages are read", async () => {
    const whoami = () => request(t.http).get('/api/info/whoami').set(other.headers).expect(200);
    await whoami();
    const { result, report } = await measure(() => Promise.all([0, 1, 2].map(() => page('first=0&last=10000').expect(200))), whoami);
    process.stdout.write(`${describeReport('three whole-range renderer pages over 40 entries of 1 MiB', report)}\n`);
    expect(result.map((r) => r.body.Entries.length)).toEqual([2, 2, 2]);
    // Generous bounds (a shared machine: these pages held the loop 747 ms when they were parsed whole); the strict goal is the bench's.
    expect(report.maxDelayMs).toBeLessThan(700);
    expect(Math.max(...report.probesMs)).toBeLessThan(1000);
  });
});
