import { copyBinaryTuples, encodeCopyBinary } from './copy-binary';
import { timestampLiteral } from './indexer.schema';

async function* chunked(b: Buffer, sizes: () => number): AsyncGenerator<Buffer> {
  for (let at = 0; at < b.length;) {
    const n = Math.max(1, sizes());
    yield b.subarray(at, at + n);
    at += n;
  }
}

describe('copyBinaryTuples', () => {
  const blocks = Array.from({ length: 40 }, (_, i) => ({
    tag: i,
    lo: Date.UTC(2024, 0, 1) * 1000 + i,
    hi: Date.UTC(2024, 0, 2) * 1000 - i,
    n: i * 3,
    raw: i * 1000,
    shard: i % 16,
    body: Buffer.alloc(i * 997, i),
  }));
  const stream = encodeCopyBinary(blocks);

  it('reads every tuple whatever the chunking (one byte, odd sizes, one piece)', async () => {
    let seed = 1;
    const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    for (const sizes of [() => 1, () => Math.floor(rnd() * 5000), () => stream.length]) {
      const got: Array<Array<Buffer | null>> = [];
      // Fields are views valid until the next tuple: kept here as copies.
      for await (const t of copyBinaryTuples(chunked(stream, sizes))) got.push(t.map((f) => f && Buffer.from(f)));
      expect(got).toHaveLength(40);
      expect(got.map((f) => f[0]!.readInt16BE(0))).toEqual(blocks.map((b) => b.tag));
      expect(got.map((f) => f[3]!.readInt32BE(0))).toEqual(blocks.map((b) => b.n));
      expect(got.every((f, i) => f[6]!.equals(blocks[i].body))).toBe(true);
    }
  });

  it('refuses what is not a binary COPY stream', async () => {
    const read = async () => {
      for await (const t of copyBinaryTuples(chunked(Buffer.from('not a copy stream at all'), () => 7))) void t;
    };
    await expect(read()).rejects.toThrow(/not a binary COPY/);
  });
});

describe('timestampLiteral', () => {
  it('writes microseconds, and years PostgreSQL takes', () => {
    expect(timestampLiteral(Date.UTC(2024, 1, 29, 23, 59, 59, 123) * 1000 + 456)).toBe('2024-02-29 23:59:59.123456+00');
    expect(timestampLiteral(0)).toBe('1970-01-01 00:00:00.000000+00');
    expect(timestampLiteral(Date.UTC(10000, 0, 1) * 1000)).toBe('10000-01-01 00:00:00.000000+00');
  });
});
