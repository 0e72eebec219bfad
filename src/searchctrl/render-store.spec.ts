import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Entry } from '../query';
import { decodeBatch, encodeBatch } from '../indexer/entry-encoding';
import { RenderStore } from './render-store';

const entry = (i: number): Entry => ({ ts: 1_700_000_000_000_000 + i * 1_000_000, tag: 1, src: '10.0.0.1', data: Buffer.from(`line ${i} é`), evs: new Map() });

describe('RenderStore', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('appends, pages by index and by time, and reports real sizes', async () => {
    const s = await RenderStore.create(path.join(dir, 'a'), 1 << 20);
    await s.append([0, 1, 2, 3, 4].map(entry));
    await s.append([5, 6, 7, 8, 9].map(entry));
    await s.finish({ kind: 'entries', EntryCount: 10, Entries: [] });
    expect(s.count).toBe(10);
    expect(s.storeSize).toBe(fs.statSync(path.join(dir, 'a', 'entries.jsonl')).size);
    expect(s.indexSize).toBe(fs.statSync(path.join(dir, 'a', 'entries.idx')).size);
    const page = await s.readRange(3, 6);
    expect(page.map((e) => Buffer.from(e.Data, 'base64').toString())).toEqual(['line 3 é', 'line 4 é', 'line 5 é']);
    expect(await s.readRange(9, 100)).toHaveLength(1);
    expect(await s.readRange(10, 20)).toEqual([]);
    const t0 = entry(2).ts;
    const byTime = await s.readByTime(t0, t0 + 4_000_000, 1, 3);
    expect(byTime.total).toBe(4);
    expect(byTime.entries.map((e) => Buffer.from(e.Data, 'base64').toString())).toEqual(['line 3 é', 'line 4 é']);
    const lines: string[] = [];
    for await (const l of s.lines()) lines.push(l);
    expect(lines).toHaveLength(10);
    const again = await RenderStore.open(path.join(dir, 'a'), 1 << 20);
    expect([again.count, again.storeSize, again.indexSize]).toEqual([10, s.storeSize, s.indexSize]);
  });

  it('stops storing over the limit and flags it', async () => {
    const s = await RenderStore.create(path.join(dir, 'b'), 500);
    await s.append(Array.from({ length: 50 }, (_, i) => entry(i)));
    expect(s.overLimit).toBe(true);
    expect(s.storeSize + s.indexSize).toBeLessThanOrEqual(500);
    expect(s.count).toBeGreaterThan(0);
    expect(s.droppedRange).toBeDefined();
    await s.close();
  });

  it('cuts pages by bytes as well as entries, never before the first entry (issue 32)', async () => {
    const s = await RenderStore.create(path.join(dir, 'p'), 1 << 20);
    const sized = (i: number, bytes: number): Entry => ({ ...entry(i), data: Buffer.alloc(bytes, 120) });
    // Entries 0-9: 1000 bytes of data each (about 1.4 KB a stored line), entry 10: 10 KB.
    await s.append([...Array.from({ length: 10 }, (_, i) => sized(i, 1000)), sized(10, 10_000)]);
    await s.finish({ kind: 'entries', EntryCount: 11, Entries: [] });
    const line = (await s.planRange(0, 1, Infinity)).bytes;
    const plan = await s.planRange(0, 100, 3 * line + 10);
    expect([plan.first, plan.entries, plan.bytes, plan.runs]).toEqual([0, 3, 3 * line, [{ from: 0, to: 3 * line }]]);
    expect((await s.readPage(plan)).map((e) => e.TS)).toEqual([0, 1, 2].map((i) => new Date(entry(i).ts / 1000).toISOString().replace('Z', '000Z')));
    // An entry larger than the page is a page of its own.
    const big = await s.planRange(10, 11, 100);
    expect([big.entries, big.bytes > 10_000]).toEqual([1, true]);
    expect(await s.readRange(9, 11, 100)).toHaveLength(1);
    // By time: the matches [1, 4) of entries 2..8, cut to two by bytes, total still counted.
    const t0 = entry(2).ts;
    const byTime = await s.planByTime(t0, entry(9).ts, 1, 4, 2 * line);
    expect([byTime.first, byTime.entries, byTime.total, byTime.runs]).toEqual([1, 2, 7, [{ from: 3 * line, to: 5 * line }]]);
    const chunks: Buffer[] = [];
    for await (const c of s.pageBytes(byTime)) chunks.push(c);
    expect(Buffer.concat(chunks).toString().trim().split('\n')).toHaveLength(2);
  });

  it('stores lines a scan worker encoded exactly as it stores the entries themselves', async () => {
    const a = await RenderStore.create(path.join(dir, 'e1'), 1 << 20);
    const b = await RenderStore.create(path.join(dir, 'e2'), 1 << 20);
    const batch = [0, 1, 2].map((i) => ({ ...entry(i), evs: new Map<string, string | number>([['n', i]]) }));
    await a.append(batch);
    await b.appendEncoded(decodeBatch(encodeBatch(batch, 'json')));
    await a.close();
    await b.close();
    for (const f of ['entries.jsonl', 'entries.idx']) expect(fs.readFileSync(path.join(dir, 'e2', f))).toEqual(fs.readFileSync(path.join(dir, 'e1', f)));
  });

  it('stores a condensing result as one JSON file', async () => {
    const s = await RenderStore.create(path.join(dir, 'c'), 1 << 20);
    await s.finish({ kind: 'table', EntryCount: 3, Entries: { Columns: ['a'], Rows: [{ TS: 'x', Row: ['1'] }] } });
    const o = await RenderStore.open(path.join(dir, 'c'), 1 << 20);
    expect(o.kind).toBe('table');
    expect(o.entryCount).toBe(3);
    expect(await o.result()).toEqual({ kind: 'table', EntryCount: 3, Entries: { Columns: ['a'], Rows: [{ TS: 'x', Row: ['1'] }] } });
    expect(o.storeSize).toBe(fs.statSync(path.join(dir, 'c', 'result.json')).size);
  });

  it('opens a stored result without reading its body (start-up cost and memory stay small)', async () => {
    const d = path.join(dir, 'd');
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, 'result.json'), '{"kind":"table","EntryCount":7,"Entries":' + 'x'.repeat(10_000));
    const o = await RenderStore.open(d, 1 << 20);
    expect([o.kind, o.entryCount]).toEqual(['table', 7]);
    await expect(o.result()).rejects.toThrow(SyntaxError);
  });
});
