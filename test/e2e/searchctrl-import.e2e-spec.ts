/**
 * Importing a search archive must not stall other requests (issue 24, item 5): three imports of
 * a 7 MiB archive whose result.json is a 60 MiB one-column table (1.28 million rows) took
 * 4.3-4.5 s each on the event loop, and GET /api/test waited up to 3.4 s meanwhile. Imports are
 * unpacked, checked and rewritten in an import worker, a row at a time.
 */
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { tableArchive, tableCell } from '../setup/archives';
import { asAdmin, createUser, TestUser } from '../setup/auth';
import { availabilityErrors, errorBody } from '../setup/errors';
import { describeReport, measure } from '../setup/event-loop';

const ROWS = 1_280_000;

describe('archive imports off the event loop', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t.http, await asAdmin(t.http));
  });
  afterAll(() => t.close());

  it('three imports of a 60 MiB one-column table keep GET /api/test fast', async () => {
    const { archive, resultBytes } = await tableArchive(ROWS);
    expect(resultBytes).toBeGreaterThan(60 * 1024 * 1024);
    expect(resultBytes).toBeLessThan(t.config.maxResultBytes);
    const probe = () => request(t.http).get('/api/test').expect(200);
    await probe();
    const { result, report } = await measure(
      () => Promise.all([0, 1, 2].map(() => request(t.http).post('/api/searchctrl/import').set(user.headers).attach('file', archive, 'table.tar.gz'))),
      probe,
    );
    process.stdout.write(`${describeReport(`three imports of a ${(archive.length / 1048576).toFixed(1)} MiB archive (${ROWS} rows, 60 MiB result.json)`, report)}\n`);
    expect(result.map((r) => [r.status, r.body.ItemCount])).toEqual([
      [200, ROWS],
      [200, ROWS],
      [200, ROWS],
    ]);
    // The strict goal (under 100 ms) is the bench's; this bound is generous for a shared machine.
    // (On the loop, these imports held it 5.7 s.)
    expect(Math.max(...report.probesMs)).toBeLessThan(1500);
    expect(report.maxDelayMs).toBeLessThan(1500);
    // The imported table is served whole, as the archive had it.
    const page = await request(t.http).get(`/api/searchctrl/${result[0].body.ID}/renderer/table`).set(user.headers).expect(200);
    expect(page.body.Entries.Rows).toHaveLength(ROWS);
    expect(page.body.Entries.Rows[ROWS - 1]).toEqual({ TS: '2024-08-01T00:00:00Z', Row: [tableCell(ROWS - 1)] });
  }, 300_000);
});

describe('archive upload bound', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ renderStoreLimitBytes: 1024 * 1024 });
    user = await createUser(t.http, await asAdmin(t.http));
  });
  afterAll(() => t.close());

  it('refuses an upload larger than RENDER_STORE_LIMIT_BYTES with a 413 naming it, while it streams', async () => {
    const r = await request(t.http)
      .post('/api/searchctrl/import')
      .set(user.headers)
      .attach('file', Buffer.alloc(2 * 1024 * 1024, 1), 'big.tar.gz');
    expect([r.status, r.body]).toEqual([413, errorBody(availabilityErrors.archiveUpload('1 MiB'), 'FILE_TOO_LARGE')]);
  });
});
