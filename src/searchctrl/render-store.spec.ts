import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Entry } from '../query';
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
