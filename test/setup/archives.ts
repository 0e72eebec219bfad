/** Search archives for tests that import them (e2e, soak), built without holding their contents twice. */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';

/** Row i's cell: v and 8 hexadecimal digits that compress about as log values do. */
export const tableCell = (i: number) => `v${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}`;

const row = (i: number) => `{"TS":"2024-08-01T00:00:00Z","Row":["${tableCell(i)}"]}`;

/**
 * A table archive: manifest.json and a one-column result.json of `rows` rows (about 50 bytes
 * each), written to the gzip stream a batch of rows at a time (no garbage of a million strings
 * left for the measurement's garbage collections).
 */
export async function tableArchive(rows: number): Promise<{ archive: Buffer; resultBytes: number }> {
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
