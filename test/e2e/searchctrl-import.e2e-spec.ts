/**
 * Importing a search archive must not stall other requests (issue 24, item 5): three imports of
 * a 7 MiB archive whose result.json is a 60 MiB one-column table (1.28 million rows) took
 * 4.3-4.5 s each on the event loop, and GET /api/test waited up to 3.4 s meanwhile. Imports are
 * unpacked, checked and rewritten in an import worker, a row at a time.
 */
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import * as zlib from 'node:zlib';
import request from 'supertest';
import * as tar from 'tar-stream';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, TestUser } from '../setup/auth';
import { describeReport, measure } from '../setup/event-loop';

const ROWS = 1_280_000;

/** Row i's cell: v and 8 hexadecimal digits that compress about as log values do. */
const cell = (i: number) => `v${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}`;

const row = (i: number) => `{"TS":"2024-08-01T00:00:00Z","Row":["${cell(i)}"]}`;

/**
 * A table archive: manifest.json and a one-column result.json of `rows` rows (about 50 bytes
 * each), written to the gzip stream a batch of rows at a time (no garbage of a million strings
 * left for the measurement's garbage collections).
 */
async function tableArchive(rows: number): Promise<{ archive: Buffer; resultBytes: number }> {
  const head = `{"kind":"table","EntryCount":${rows},"Entries":{"Columns":["value"],"Rows":[`;
  const tail = ']}}';
  const resultBytes = head.length + rows * row(0).length + (rows - 1) + tail.length;
  const manifest = Buffer.from(
    JSON.stringify({
      Format: 'search-archive',
      Version: 1,
      UserQuery: 'tag=x table value',
      EffectiveQuery: 'tag=x table value',
      StartRange: '2024-08-01T00:00:00Z',
      EndRange: '2024-08-02T00:00:00Z',
      Started: '2024-08-02T00:00:00Z',
      Finished: '2024-08-02T00:00:01Z',
      RenderModule: 'table',
      RenderCmd: 'table value',
      DownloadFormats: ['json', 'csv', 'archive'],
      CollapsingIndex: 1,
      QueryTimeSpecified: false,
      Name: 'big table',
      Metadata: null,
      Kind: 'table',
      EntryCount: rows,
      StoredEntries: 0,
      OverLimit: false,
      Files: { 'result.json': resultBytes },
    }),
  );
  const pack = tar.pack();
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = pipeline(pack, zlib.createGzip({ level: 6 }), out);
  pack.entry({ name: 'manifest.json' }, manifest);
  const entry = pack.entry({ name: 'result.json', size: resultBytes });
  const write = async (text: string) => {
    if (!entry.write(Buffer.from(text))) await once(entry, 'drain');
  };
  await write(head);
  for (let from = 0; from < rows; from += 10_000) {
    const batch: string[] = [];
    for (let i = from; i < Math.min(rows, from + 10_000); i++) batch.push(row(i));
    await write(`${from ? ',' : ''}${batch.join(',')}`);
  }
  await write(tail);
  entry.end();
  pack.finalize();
  await done;
  return { archive: Buffer.concat(chunks), resultBytes };
}

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
    expect(Math.max(...report.probesMs)).toBeLessThan(500);
    expect(report.maxDelayMs).toBeLessThan(500);
    // The imported table is served whole, as the archive had it.
    const page = await request(t.http).get(`/api/searchctrl/${result[0].body.ID}/renderer/table`).set(user.headers).expect(200);
    expect(page.body.Entries.Rows).toHaveLength(ROWS);
    expect(page.body.Entries.Rows[ROWS - 1]).toEqual({ TS: '2024-08-01T00:00:00Z', Row: [cell(ROWS - 1)] });
  }, 300_000);
});
