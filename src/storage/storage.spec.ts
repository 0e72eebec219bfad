import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BlobStore, readHead } from './blob-store';
import { contentTypeHeader, detectContentType, TextCheck } from './content-sniff';
import { attachmentDisposition, isDisplayName } from './display-name';

describe('display names', () => {
  it.each(['lookup.csv', 'résumé 2024', 'a..b', '...', 'x'.repeat(255)])('accepts %p', (n) => expect(isDisplayName(n)).toBe(true));
  it.each(['', '.', '..', '../../etc/passwd', 'a/b', 'a\\b', 'nul\u0000', 'new\nline', 'tab\t', 'x'.repeat(256), 5])('refuses %p', (n) => expect(isDisplayName(n)).toBe(false));

  it('builds a safe attachment disposition', () => {
    expect(attachmentDisposition('plain.txt')).toBe(`attachment; filename="plain.txt"; filename*=UTF-8''plain.txt`);
    expect(attachmentDisposition('a"b;c%d\r\ne/f')).toBe(`attachment; filename="a_b_c_d__e_f"; filename*=UTF-8''a%22b%3Bc%25d__e_f`);
    expect(attachmentDisposition('   ', 'fallback')).toBe(`attachment; filename="fallback"; filename*=UTF-8''fallback`);
    expect(attachmentDisposition("it's (x)*")).toBe(`attachment; filename="it's (x)*"; filename*=UTF-8''it%27s%20%28x%29%2A`);
  });
});

describe('content sniffing', () => {
  const text = (chunks: Buffer[]) => {
    const c = new TextCheck();
    chunks.forEach((b) => c.push(b));
    return c.finish();
  };

  it('recognises UTF-8 text across chunk boundaries', () => {
    const s = Buffer.from('héllo wörld ✓');
    expect(text([s.subarray(0, 2), s.subarray(2, 3), s.subarray(3)])).toBe(true);
    expect(text([Buffer.from([0xc3])])).toBe(false);
    expect(text([Buffer.from('a\u0000b')])).toBe(false);
    expect(text([Buffer.from([0xff, 0xfe])])).toBe(false);
  });

  it('sniffs binary formats, then text, then octet-stream', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    expect(await detectContentType(png, png.length, false)).toBe('image/png');
    expect(await detectContentType(Buffer.from('a,b\n'), 4, true)).toBe('text/plain');
    expect(await detectContentType(Buffer.from([1, 2, 3]), 3, false)).toBe('application/octet-stream');
    expect(await detectContentType(Buffer.alloc(0), 0, true)).toBe('application/octet-stream');
    expect(contentTypeHeader('text/plain')).toBe('text/plain; charset=utf-8');
    expect(contentTypeHeader('')).toBe('application/octet-stream');
  });
});

describe('BlobStore', () => {
  let dir: string;
  let store: BlobStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blobstore-'));
    store = new BlobStore(path.join(dir, 'blobs'));
    await store.init();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const stage = (id: string, data: Buffer) => {
    const tmpPath = path.join(store.root, `${id}.tmp`);
    fs.writeFileSync(tmpPath, data);
    return { contentId: id, tmpPath, size: data.length, sha256: '', contentType: '', originalName: '' };
  };

  it('commits by rename, copies, reads heads and removes', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    const up = stage(id, Buffer.from('hello world'));
    await store.commit(up);
    expect(fs.existsSync(up.tmpPath)).toBe(false);
    const fh = (await store.open(id))!;
    // An open blob stays readable after removal.
    await store.remove(id);
    expect(await store.open(id)).toBeNull();
    expect((await readHead(fh, 5)).toString()).toBe('hello');
    expect((await readHead(fh, 100)).toString()).toBe('hello world');
    await fh.close();
    expect(await store.copy(id)).toBeNull();
    await store.commit(stage(id, Buffer.from('again')));
    const copy = (await store.copy(id))!;
    expect(fs.readFileSync(store.pathOf(copy)).toString()).toBe('again');
  });

  it('refuses content ids that are not UUIDs', () => {
    expect(() => store.pathOf('../../etc/passwd')).toThrow();
  });

  it('sweeps old temp files and unreferenced blobs only', async () => {
    const keep = '22222222-2222-4222-8222-222222222222';
    const orphan = '33333333-3333-4333-8333-333333333333';
    await store.commit(stage(keep, Buffer.from('k')));
    await store.commit(stage(orphan, Buffer.from('o')));
    stage('44444444-4444-4444-8444-444444444444', Buffer.from('t'));
    fs.writeFileSync(path.join(store.root, 'README'), 'not a blob');
    expect(await store.sweep(new Set([keep]), 60_000)).toBe(0);
    const old = new Date(Date.now() - 120_000);
    for (const f of fs.readdirSync(store.root)) fs.utimesSync(path.join(store.root, f), old, old);
    expect(await store.sweep(new Set([keep]), 60_000)).toBe(2);
    expect(fs.readdirSync(store.root).sort()).toEqual([keep, 'README']);
  });
});
