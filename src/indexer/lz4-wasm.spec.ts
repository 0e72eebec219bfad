import fc from 'fast-check';
import { compressSync, uncompressSync } from 'lz4-napi';
import { BlockReader, packBlocks, useLz4Module, usesLz4Module } from './block-codec';
import { loadLz4Module, LZ4_SCRATCH_MAX_BYTES, Lz4Scratch } from './lz4-wasm';

/** Inputs that exercise every path of the decoder: literal runs short and long, matches near and far, overlapping ones (periods 1-7). */
const inputs = fc.oneof(
  fc.uint8Array({ maxLength: 5000 }),
  fc.array(fc.constantFrom('GET ', 'POST ', 'status=200 ', 'upstream timeout ', 'é', '\n', 'x'), { maxLength: 3000 }).map((w) => Buffer.from(w.join(''))),
  fc
    .tuple(fc.uint8Array({ minLength: 1, maxLength: 7 }), fc.integer({ min: 1, max: 4000 }), fc.uint8Array({ maxLength: 40 }))
    .map(([period, times, tail]) => Buffer.concat([...Array.from({ length: times }, () => Buffer.from(period)), Buffer.from(tail)])),
  fc
    .array(fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.integer({ min: 1, max: 50 })), { maxLength: 60 })
    .map((parts) => Buffer.concat(parts.flatMap(([p, k]) => Array.from({ length: k }, () => Buffer.from(p))))),
);

describe('LZ4 WebAssembly decoder', () => {
  let scratch: Lz4Scratch;
  beforeAll(async () => {
    scratch = new Lz4Scratch(await loadLz4Module());
  });

  it('decodes whatever lz4-napi encodes, byte for byte', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const body = compressSync(Buffer.from(input));
        expect(scratch.decode(body)!.equals(Buffer.from(input))).toBe(true);
      }),
      { numRuns: 600 },
    );
    // A whole 1 MiB block of the bench's kind of lines.
    const lines = Buffer.from(
      Array.from({ length: 6000 }, (_, i) => `2026-10-17T00:00:${i % 60}Z web-0${i % 9} status=${i % 7 ? 200 : 502} req=${(i * 2654435761) >>> 0}`).join(''),
    );
    expect(scratch.decode(compressSync(lines))!.equals(lines)).toBe(true);
  });

  it('refuses damaged bodies with "corrupt block", never another error, and leaves the scratch usable', () => {
    const good = Buffer.from('the quick brown fox jumps over the lazy dog; '.repeat(200));
    const body = compressSync(good);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: body.length - 1 }), fc.integer({ min: 0, max: 255 }), fc.boolean(), (at, byte, truncate) => {
        const bad = truncate ? body.subarray(0, at) : Buffer.from(body);
        if (!truncate) bad[at] = byte;
        try {
          const out = scratch.decode(bad);
          // A change that still decodes (a literal byte) gives the declared size.
          if (out) expect(out.length).toBe(bad.readUInt32LE(0));
        } catch (err) {
          expect((err as Error).message).toMatch(/^corrupt block/);
        }
        expect(scratch.decode(body)!.equals(good)).toBe(true);
      }),
      { numRuns: 1500 },
    );
    // Offsets that point before the output, a declared size the data overruns.
    expect(() => scratch.decode(Buffer.from([8, 0, 0, 0, 0x0f, 0xff, 0xff]))).toThrow(/^corrupt block/);
    expect(() => scratch.decode(Buffer.from([2, 0, 0, 0, 0x50, 1, 2, 3, 4, 5]))).toThrow(/^corrupt block/);
  });

  it('leaves blocks larger than its bound to the other decoder: its memory stays bounded', () => {
    const huge = Buffer.alloc(8);
    huge.writeUInt32LE(LZ4_SCRATCH_MAX_BYTES, 0);
    expect(scratch.decode(huge)).toBeUndefined();
  });

  it('reads blocks the same as lz4-napi through BlockReader, kept or transient', async () => {
    expect(usesLz4Module()).toBe(false);
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      ts: 1_700_000_000_000_000 + i,
      src: `10.0.0.${i % 5}`,
      data: Buffer.from(`line ${i} ${'x'.repeat(i % 50)}`),
      evs: i % 3 ? null : `[["k",${i}]]`,
    }));
    const { payload } = packBlocks(3, entries)[0];
    const body = compressSync(payload);
    const napi = BlockReader.decompress(body);
    useLz4Module(await loadLz4Module());
    expect(usesLz4Module()).toBe(true);
    const kept = BlockReader.decompress(body);
    const transient = BlockReader.transient(body);
    for (const r of [kept, transient]) {
      expect(r.n).toBe(napi.n);
      expect(Array.from({ length: r.n }, (_, i) => r.entry(i))).toEqual(Array.from({ length: napi.n }, (_, i) => napi.entry(i)));
    }
    // A kept reader outlives the next transient one (which reuses the scratch memory).
    BlockReader.transient(compressSync(packBlocks(4, entries.slice(0, 2000).reverse())[0].payload));
    expect(kept.data.equals(uncompressSync(body).subarray(payload.length - kept.data.length))).toBe(true);
  });
});
