import { BLOCK_MAX_ENTRIES, BlockEntry, BlockReader, BLOCK_TARGET_BYTES, compressBlock, packBlocks } from './block-codec';

/** A small seeded PRNG: the same cases on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function randomEntries(r: () => number, n: number): BlockEntry[] {
  const words = ['GET', 'POST', 'error', 'timeout', 'ok', 'é', '\u0000', 'upstream', '\xff'];
  return Array.from({ length: n }, () => ({
    ts: Math.floor(r() * 86_400_000_000) + 1_700_000_000_000_000,
    src: ['10.0.0.1', '::1', '', 'host-b'][Math.floor(r() * 4)],
    data: Buffer.from(Array.from({ length: Math.floor(r() * 6) }, () => words[Math.floor(r() * words.length)]).join(' '), 'latin1'),
    evs: r() < 0.3 ? JSON.stringify([['k', Math.floor(r() * 10)]]) : null,
  }));
}

describe('block codec', () => {
  it('round-trips every field, newest first, through LZ4', async () => {
    const r = rng(1);
    for (let round = 0; round < 20; round++) {
      const entries = randomEntries(r, 1 + Math.floor(r() * 300));
      const want = [...entries].sort((a, b) => b.ts - a.ts);
      const [block, ...more] = packBlocks(7, entries.slice());
      expect(more).toEqual([]);
      expect(block).toMatchObject({ tag: 7, n: want.length, lo: want[want.length - 1].ts, hi: want[0].ts, raw: want.reduce((a, e) => a + e.data.length, 0) });
      const reader = BlockReader.decompress(await compressBlock(block.payload));
      const got = Array.from({ length: reader.n }, (_, i) => reader.entry(i));
      expect(got.map((e) => e.ts)).toEqual(want.map((e) => e.ts));
      expect(got.map((e) => e.data.toString('latin1')).sort()).toEqual(want.map((e) => e.data.toString('latin1')).sort());
      // Same time: any order, but each entry keeps its own source and EVs.
      const key = (e: BlockEntry) => `${e.ts}|${e.src}|${e.data.toString('hex')}|${e.evs}`;
      expect(got.map(key).sort()).toEqual(want.map(key).sort());
    }
  });

  it('cuts blocks at the target size; an oversized entry gets a block of its own', () => {
    const big = { ts: 5, src: 's', data: Buffer.alloc(BLOCK_TARGET_BYTES + 10, 1), evs: null };
    const small = Array.from({ length: 3000 }, (_, i) => ({ ts: i, src: 's', data: Buffer.alloc(1000, 2), evs: null }));
    const blocks = packBlocks(1, [big, ...small]);
    expect(blocks.reduce((a, b) => a + b.n, 0)).toBe(3001);
    expect(blocks.filter((b) => b.raw > BLOCK_TARGET_BYTES).map((b) => b.n)).toEqual([1]);
    expect(blocks.every((b) => b.n === 1 || b.raw <= BLOCK_TARGET_BYTES)).toBe(true);
  });

  it('cuts blocks of tiny or empty entries by count: columns stay bounded', () => {
    const empty = Array.from({ length: BLOCK_MAX_ENTRIES + 100 }, (_, i) => ({ ts: i, src: '', data: Buffer.alloc(0), evs: null }));
    expect(packBlocks(1, empty).map((b) => b.n)).toEqual([BLOCK_MAX_ENTRIES, 100]);
  });

  it('finds the entries containing a substring with one search over the data, never across two entries', () => {
    const r = rng(2);
    for (let round = 0; round < 30; round++) {
      const entries = randomEntries(r, 1 + Math.floor(r() * 200));
      const reader = new BlockReader(packBlocks(1, entries)[0].payload);
      for (const needle of ['error', 'o', 'ok error', 'timeout GET', '\u0000', 'é']) {
        const n = Buffer.from(needle, 'latin1');
        const naive = Array.from({ length: reader.n }, (_, i) => i).filter((i) => reader.dataView(i).includes(n));
        expect(reader.entriesContaining(n)).toEqual(naive);
      }
    }
    // "ab" spans the boundary of "xa" and "bx": not a match.
    const reader = new BlockReader(
      packBlocks(1, [
        { ts: 2, src: '', data: Buffer.from('xa'), evs: null },
        { ts: 1, src: '', data: Buffer.from('bx'), evs: null },
      ])[0].payload,
    );
    expect(reader.entriesContaining(Buffer.from('ab'))).toEqual([]);
  });

  it('refuses what is not a block', () => {
    expect(() => new BlockReader(Buffer.from('not a block at all, really not'))).toThrow(/not a block/);
    const p = packBlocks(1, randomEntries(rng(3), 10))[0].payload;
    expect(() => new BlockReader(p.subarray(0, p.length - 1))).toThrow(/bad length/);
  });
});
