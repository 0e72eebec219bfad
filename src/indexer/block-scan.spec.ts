import { compressSync } from 'lz4-napi';
import { BlockEntry, BlockReader, packBlocks, useLz4Module } from './block-codec';
import { blockFilter, NewestFirstMerge, selectEntries, toEntries, toEntry } from './block-scan';
import { loadLz4Module } from './lz4-wasm';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const entry = (ts: number, data: string): BlockEntry => ({ ts, src: '', data: Buffer.from(data), evs: null });

describe('selectEntries', () => {
  const block = new BlockReader(packBlocks(1, [entry(50, 'GET /health ok'), entry(40, 'POST error'), entry(30, 'GET error x'), entry(20, 'debug error')])[0].payload);
  const row = { lo: 20, hi: 50 };
  const data = (idx: number[]) => idx.map((i) => block.dataView(i).toString());

  it('keeps entries with every piece and none of the exact exclusions', () => {
    const f = blockFilter(
      {
        grep: [
          { pattern: 'error', invert: false },
          { pattern: 'debug', invert: true },
        ],
      },
      0,
      100,
    );
    expect(data(selectEntries(block, row, f))).toEqual(['POST error', 'GET error x']);
    const w = blockFilter({ grep: [{ pattern: 'GET*error', invert: false }] }, 0, 100);
    expect(data(selectEntries(block, row, w))).toEqual(['GET error x']);
  });

  it('checks times only in a block at an edge of the range', () => {
    expect(data(selectEntries(block, row, blockFilter({ grep: [] }, 30, 50)))).toEqual(['POST error', 'GET error x']);
    expect(selectEntries(block, row, blockFilter({ grep: [] }, 0, 51))).toHaveLength(4);
  });
});

describe('toEntries', () => {
  it('gives the entries toEntry gives, sharing one copy of the data when most are selected, and outlives the transient block', async () => {
    useLz4Module(await loadLz4Module());
    const entries = Array.from({ length: 200 }, (_, i) => ({
      ts: 1000 - i,
      src: `h${i % 3}`,
      data: Buffer.from(`line ${i} ${'y'.repeat(i % 17)}`),
      evs: i % 4 ? null : `[["n",${i}]]`,
    }));
    const body = compressSync(packBlocks(9, entries)[0].payload);
    const other = compressSync(
      packBlocks(
        9,
        entries.map((e) => ({ ...e, data: Buffer.from('z'.repeat(e.data.length)) })),
      )[0].payload,
    );
    for (const idx of [Array.from({ length: 200 }, (_, i) => i), [3, 50, 199], []]) {
      const block = BlockReader.transient(body);
      const want = idx.map((i) => toEntry(block, i, 9));
      const got = toEntries(block, idx, 9);
      expect(got).toEqual(want);
      // Half or more: one copy of the block's data under every entry's.
      if (idx.length === 200) {
        expect(new Set(got.map((e) => e.data.buffer)).size).toBe(1);
        expect(got.map((e) => e.data.byteOffset - got[0].data.byteOffset)).toEqual(idx.map((i) => block.dataStart(i)));
      }
      BlockReader.transient(other); // the scratch memory now holds another block
      expect(got.map((e) => e.data.toString())).toEqual(want.map((e) => e.data.toString()));
    }
  });
});

describe('NewestFirstMerge', () => {
  it('gives every entry of overlapping blocks once, newest first, opening blocks as their newest entry is reached', () => {
    const r = rng(5);
    for (let round = 0; round < 20; round++) {
      // Blocks with overlapping time ranges, as out-of-order batches make them.
      const blocks = Array.from({ length: 1 + Math.floor(r() * 12) }, () => {
        const base = Math.floor(r() * 1000);
        const es = Array.from({ length: 1 + Math.floor(r() * 40) }, () => entry(base + Math.floor(r() * 300), String(Math.floor(r() * 1e6))));
        const p = packBlocks(3, es)[0];
        return { row: { lo: p.lo, hi: p.hi }, reader: new BlockReader(p.payload) };
      });
      blocks.sort((a, b) => b.row.hi - a.row.hi);
      const merge = new NewestFirstMerge();
      const out: number[] = [];
      for (const b of blocks) {
        for (const e of merge.take(b.row.hi, 7)) out.push(e.ts);
        // take() stops at 7: drain the rest at this bound before opening the block
        for (let got = merge.take(b.row.hi, 1e9); got.length; got = merge.take(b.row.hi, 1e9)) out.push(...got.map((e) => e.ts));
        merge.add(
          b.reader,
          Array.from({ length: b.reader.n }, (_, i) => i),
          3,
        );
      }
      out.push(...merge.take(Number.NEGATIVE_INFINITY, 1e9).map((e) => e.ts));
      const all = blocks.flatMap((b) => Array.from(b.reader.ts)).sort((a, b) => b - a);
      expect(out).toEqual(all);
      expect(merge.open).toBe(0);
    }
  });

  it('holds one block at a time when blocks do not overlap', () => {
    const merge = new NewestFirstMerge();
    for (let k = 9; k >= 0; k--) {
      const p = packBlocks(
        1,
        Array.from({ length: 10 }, (_, i) => entry(k * 100 + i, 'x')),
      )[0];
      merge.take(p.hi, 1e9);
      merge.add(
        new BlockReader(p.payload),
        Array.from({ length: 10 }, (_, i) => i),
        1,
      );
      expect(merge.open).toBe(1);
    }
  });
});
