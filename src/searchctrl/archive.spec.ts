import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import { Entry } from '../query';
import { archiveStream, boundedLines, importArchive, MAX_UNDECLARED_BYTES } from './archive';
import { RenderStore } from './render-store';
import { LiveSearch } from './search.model';

const entry = (i: number): Entry => ({ ts: 1_700_000_000_000_000 + i * 1_000_001, tag: 2, src: '::1', data: Buffer.from(`hello ${i}`), evs: new Map([['n', i]]) });
const limits = { maxUnpackedBytes: 4 << 20, maxResultBytes: 1 << 20, maxEntries: 1000 };

function search(store: RenderStore): LiveSearch {
  return {
    id: '1234567890',
    uid: 1,
    gids: [],
    global: false,
    userQuery: 'tag=x',
    effectiveQuery: 'tag=x | text',
    start: new Date(0),
    end: new Date(1e12),
    renderModule: 'text',
    renderCmd: 'text',
    downloadFormats: ['text', 'json', 'csv', 'archive'],
    collapsingIndex: 0,
    queryTimeSpecified: false,
    noHistory: false,
    preview: false,
    name: '',
    metadata: null,
    saveMetadata: { note: 'x' },
    launchInfo: null,
    flags: { clients: 0, finished: true, backgrounded: false, saveRequested: false, saved: true, moving: false, removed: false },
    started: new Date(0),
    finishedAt: new Date(1000),
    progress: { entriesScanned: 0, bytesScanned: 0, finished: true },
    store,
  };
}

async function tarGz(file: string, files: Array<{ name: string; body?: Buffer; header?: Partial<tar.Header> }>): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, zlib.createGzip(), fs.createWriteStream(file));
  for (const f of files) {
    await new Promise<void>((res, rej) => pack.entry({ name: f.name, ...(f.header ?? {}) }, f.body ?? Buffer.alloc(0), (e) => (e ? rej(e) : res())));
  }
  pack.finalize();
  await done;
}

describe('search archives', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arch-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function exported(): Promise<{ file: string; store: RenderStore }> {
    const store = await RenderStore.create(path.join(dir, 'src'), 1 << 20);
    await store.append(Array.from({ length: 25 }, (_, i) => entry(i)));
    await store.finish({ kind: 'entries', EntryCount: 25, Entries: [] });
    const file = path.join(dir, 'a.tar.gz');
    await pipeline(archiveStream(search(store)), fs.createWriteStream(file));
    return { file, store };
  }

  it('round-trips entries with an identical data file and index', async () => {
    const { file, store } = await exported();
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    const a = await importArchive(file, out, limits);
    expect(a.entryCount).toBe(25);
    expect(a.manifest.Metadata).toEqual({ note: 'x' });
    expect(fs.readFileSync(path.join(out, 'entries.jsonl'))).toEqual(fs.readFileSync(path.join(store.dir, 'entries.jsonl')));
    expect(fs.readFileSync(path.join(out, 'entries.idx'))).toEqual(fs.readFileSync(path.join(store.dir, 'entries.idx')));
    expect(fs.readdirSync(out).sort()).toEqual(['entries.idx', 'entries.jsonl']);
  });

  it('imports a multi-megabyte archive: its file streams past the undeclared-bytes bound without tripping it', async () => {
    const store = await RenderStore.create(path.join(dir, 'big'), 64 << 20);
    const n = 40_000;
    const big = (i: number): Entry => ({ ...entry(i), data: Buffer.from(`${i} ${Math.random().toString(36).repeat(4)}`) });
    for (let i = 0; i < n; i += 5000) await store.append(Array.from({ length: 5000 }, (_, k) => big(i + k)));
    await store.finish({ kind: 'entries', EntryCount: n, Entries: [] });
    const file = path.join(dir, 'big.tar.gz');
    await pipeline(archiveStream(search(store)), fs.createWriteStream(file));
    expect(fs.statSync(path.join(store.dir, 'entries.jsonl')).size).toBeGreaterThan(8 * MAX_UNDECLARED_BYTES);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    expect((await importArchive(file, out, { maxUnpackedBytes: 64 << 20, maxResultBytes: 1 << 20, maxEntries: n })).entryCount).toBe(n);
  });

  const manifest = (o: Record<string, unknown> = {}) =>
    Buffer.from(
      JSON.stringify({
        Format: 'search-archive',
        Version: 1,
        UserQuery: 'q',
        EffectiveQuery: 'q | text',
        StartRange: '2020-01-01T00:00:00Z',
        EndRange: '2020-01-02T00:00:00Z',
        Started: '2020-01-01T00:00:00Z',
        Finished: '2020-01-01T00:00:01Z',
        RenderModule: 'text',
        RenderCmd: 'text',
        DownloadFormats: ['text'],
        CollapsingIndex: 0,
        QueryTimeSpecified: false,
        Name: '',
        Metadata: null,
        Kind: 'entries',
        EntryCount: 0,
        StoredEntries: 0,
        OverLimit: false,
        Files: { 'entries.jsonl': 0 },
        ...o,
      }),
    );

  it.each<[string, Array<{ name: string; body?: Buffer; header?: Partial<tar.Header> }>, number]>([
    [
      'path traversal',
      [
        { name: 'manifest.json', body: manifest() },
        { name: '../evil', body: Buffer.from('x') },
      ],
      400,
    ],
    ['absolute path', [{ name: '/etc/passwd', body: Buffer.from('x') }], 400],
    ['symlink', [{ name: 'entries.jsonl', header: { type: 'symlink', linkname: '/etc/passwd' } }], 400],
    [
      'unknown file',
      [
        { name: 'manifest.json', body: manifest() },
        { name: 'extra.txt', body: Buffer.from('x') },
      ],
      400,
    ],
    ['bad manifest JSON', [{ name: 'manifest.json', body: Buffer.from('{nope') }, { name: 'entries.jsonl' }], 400],
    ['wrong format', [{ name: 'manifest.json', body: manifest({ Format: 'zip' }) }, { name: 'entries.jsonl' }], 400],
    ['missing data file', [{ name: 'manifest.json', body: manifest() }], 400],
    [
      'bad entry line',
      [
        { name: 'manifest.json', body: manifest({ Files: { 'entries.jsonl': 8 }, StoredEntries: 1 }) },
        { name: 'entries.jsonl', body: Buffer.from('{"TS":1}\n') },
      ],
      400,
    ],
    [
      'duplicate',
      [
        { name: 'manifest.json', body: manifest() },
        { name: 'manifest.json', body: manifest() },
      ],
      400,
    ],
  ])('refuses %s', async (_name, files, status) => {
    const file = path.join(dir, 'bad.tar.gz');
    await tarGz(file, files);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    await expect(importArchive(file, out, limits)).rejects.toMatchObject({ status });
  });

  it('refuses a huge declared size, truncation, a gzip bomb and non-gzip input', async () => {
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    // huge declared size: a header claiming 1 TB followed by nothing
    const hdr = tar.pack();
    const chunks: Buffer[] = [];
    hdr.on('data', (c: unknown) => chunks.push(c as Buffer));
    hdr.entry({ name: 'entries.jsonl', size: 1e12 });
    await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(path.join(dir, 'huge.tar.gz'), zlib.gzipSync(Buffer.concat(chunks)));
    await expect(importArchive(path.join(dir, 'huge.tar.gz'), out, limits)).rejects.toMatchObject({ status: 413 });
    // truncated
    const { file } = await exported();
    const whole = fs.readFileSync(file);
    fs.writeFileSync(path.join(dir, 'trunc.tar.gz'), whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(importArchive(path.join(dir, 'trunc.tar.gz'), out, limits)).rejects.toMatchObject({ status: 400 });
    // gzip bomb: 64 MiB of zeros
    fs.writeFileSync(path.join(dir, 'bomb.gz'), zlib.gzipSync(Buffer.alloc(64 << 20), { level: 9 }));
    await expect(importArchive(path.join(dir, 'bomb.gz'), out, { ...limits, maxUnpackedBytes: 1 << 30 })).rejects.toMatchObject({
      status: 413,
      // Zeros declare no file: stopped after MAX_UNDECLARED_BYTES, long before the ratio bound (13 MB here).
      message: `Data beyond the files the archive declares is larger than the limit of ${MAX_UNDECLARED_BYTES / 1024} KiB`,
    });
    fs.writeFileSync(path.join(dir, 'plain.txt'), 'just text');
    await expect(importArchive(path.join(dir, 'plain.txt'), out, limits)).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a result file above maxResultBytes while streaming, before parsing it', async () => {
    const body = Buffer.from(JSON.stringify({ kind: 'table', EntryCount: 1, Entries: { Columns: ['a'], Rows: [{ TS: 'x', Row: ['y'.repeat(2 << 20)] }] } }));
    const file = path.join(dir, 'bigresult.tar.gz');
    await tarGz(file, [
      { name: 'manifest.json', body: manifest({ Kind: 'table', RenderModule: 'table', EntryCount: 1, StoredEntries: 0, Files: { 'result.json': body.length } }) },
      { name: 'result.json', body },
    ]);
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    await expect(importArchive(file, out, { ...limits, maxUnpackedBytes: 16 << 20 })).rejects.toMatchObject({
      status: 413,
      message: 'result.json is larger than the limit of 1 MiB (MAX_RESULT_BYTES)',
    });
  });

  describe('condensed results, checked one element at a time', () => {
    const resultArchive = async (kind: string, body: Buffer, entryCount: number) => {
      const file = path.join(dir, `${kind}.tar.gz`);
      await tarGz(file, [
        { name: 'manifest.json', body: manifest({ Kind: kind, RenderModule: kind, EntryCount: entryCount, StoredEntries: 0, Files: { 'result.json': body.length } }) },
        { name: 'result.json', body },
      ]);
      const out = fs.mkdtempSync(path.join(dir, 'out-'));
      return { file, out };
    };
    const results: Array<[string, Record<string, unknown>]> = [
      [
        'table',
        {
          Columns: ['a', 'b"\\'],
          Rows: [
            { TS: '2020-01-01T00:00:00Z', Row: ['1', 'x,y'] },
            { TS: 't', Row: ['', 'é'] },
          ],
        },
      ],
      ['chart', { Names: ['n'], Values: [{ TS: 't', Data: [1, 2.5, -3e10] }] }],
      ['gauge', [{ Name: 'g', Magnitude: 1, Min: 0, Max: 2 }]],
      ['stackgraph', [{ Key: 'k', Values: [{ Label: 'l', Value: 3 }] }]],
      ['pointmap', [{ Loc: { Lat: 1.5, Long: -2 }, Metadata: [{ Key: 'k', Value: 'v' }] }, { Loc: { Lat: 0, Long: 0 } }]],
    ];

    it.each(results)('imports a %s result as serializeResult writes it, whatever the key order, extra keys and spacing', async (kind, entries) => {
      const canonical = JSON.stringify({ kind, EntryCount: 7, Entries: entries });
      // Entries first, an extra key, and pretty-printed: still the same result.
      const body = Buffer.from(JSON.stringify({ Extra: { deep: [1, { x: '}]' }] }, Entries: entries, EntryCount: 7, kind }, null, 2));
      const { file, out } = await resultArchive(kind, body, 7);
      const taken: number[] = [];
      const a = await importArchive(file, out, { ...limits, take: async (n) => void taken.push(n) });
      expect(a.entryCount).toBe(7);
      const stored = fs.readFileSync(path.join(out, 'result.json'), 'utf8');
      expect(JSON.parse(stored)).toEqual(JSON.parse(canonical));
      expect(stored.startsWith(`{"kind":"${kind}","EntryCount":7,"Entries":`)).toBe(true);
      // Every byte written was charged before it was written.
      expect(taken.reduce((x, y) => x + y, 0)).toBe(Buffer.byteLength(stored));
      expect(fs.readdirSync(out).sort()).toEqual(['entries.idx', 'entries.jsonl', 'result.json']);
    });

    it.each<[string, string, string, number]>([
      ['another kind', 'table', JSON.stringify({ kind: 'chart', EntryCount: 1, Entries: { Columns: [], Rows: [] } }), 400],
      ['a bad row', 'table', JSON.stringify({ kind: 'table', EntryCount: 1, Entries: { Columns: ['a'], Rows: [{ TS: 1, Row: [] }] } }), 400],
      ['a missing part', 'table', JSON.stringify({ kind: 'table', EntryCount: 1, Entries: { Columns: ['a'] } }), 400],
      ['a key twice', 'gauge', '{"kind":"gauge","EntryCount":1,"Entries":[],"Entries":[]}', 400],
      ['another count', 'gauge', JSON.stringify({ kind: 'gauge', EntryCount: 2, Entries: [] }), 400],
      ['no count', 'gauge', JSON.stringify({ kind: 'gauge', Entries: [] }), 400],
      ['broken JSON', 'gauge', '{"kind":"gauge","EntryCount":1,"Entries":[{"Name":"g"', 400],
      ['trailing data', 'gauge', '{"kind":"gauge","EntryCount":1,"Entries":[]} {}', 400],
      ['a scalar', 'gauge', '42', 400],
    ])('refuses %s', async (_what, kind, text, status) => {
      const { file, out } = await resultArchive(kind, Buffer.from(text), 1);
      await expect(importArchive(file, out, limits)).rejects.toMatchObject({ status });
    });

    it('stops when a quota refuses the bytes, and holds one row at a time, never the document', async () => {
      const rows = Array.from({ length: 200_000 }, (_, i) => ({ TS: '2020-01-01T00:00:00Z', Row: [`row ${i}`] }));
      const body = Buffer.from(JSON.stringify({ kind: 'table', EntryCount: rows.length, Entries: { Columns: ['r'], Rows: rows } }));
      const { file, out } = await resultArchive('table', body, rows.length);
      let room = 1 << 20;
      const refusing = async (n: number) => {
        room -= n;
        if (room < 0) throw Object.assign(new Error('quota'), { status: 413 });
      };
      await expect(importArchive(file, out, { ...limits, maxUnpackedBytes: 64 << 20, maxResultBytes: 64 << 20, take: refusing })).rejects.toMatchObject({ status: 413 });
      const again = fs.mkdtempSync(path.join(dir, 'again-'));
      await importArchive(file, again, { ...limits, maxUnpackedBytes: 64 << 20, maxResultBytes: 64 << 20 });
      expect(JSON.parse(fs.readFileSync(path.join(again, 'result.json'), 'utf8')).Entries.Rows).toHaveLength(rows.length);
    });
  });

  it('splits lines without holding more than the longest allowed one', async () => {
    async function* chunks(...parts: string[]) {
      for (const p of parts) yield Buffer.from(p);
    }
    const lines: string[] = [];
    for await (const l of boundedLines(chunks('ab', 'c\r\nde\n', '\nf'), 10)) lines.push(l);
    expect(lines).toEqual(['abc', 'de', '', 'f']);
    const long = async () => {
      for await (const _ of boundedLines(chunks('x'.repeat(6), 'x'.repeat(6)), 10)) void _;
    };
    await expect(long()).rejects.toMatchObject({ status: 413, message: 'A line of entries.jsonl is larger than the limit of 10 bytes' });
  });
});
