/**
 * LZ4 block decoding into memory that is reused, for scans. `lz4-napi` (which compresses every
 * block) hands back each decoded block as a new external buffer: on 1 MiB blocks that
 * allocation, and the garbage collections it drives, cost as much as the decoding itself, and a
 * scan decodes every block it reads. This decoder is a WebAssembly function over one linear
 * memory: the compressed body is copied in, decoded next to it, and searched where it lies; it
 * allocates nothing per block.
 *
 * Measured on the bench's lines (1 MiB blocks, one core, `npm run bench` machine): lz4-napi's
 * `uncompressSync` 0.80-0.87 GB/s, this decoder 1.47-1.54 GB/s, and decoding plus `indexOf`
 * 0.80-0.87 GB/s. No package on npm offers decoding into a caller's buffer with prebuilt
 * binaries (`lz4` builds from C with node-gyp; `lz4-wasm` returns new arrays too).
 *
 * The decoder is written in WebAssembly's text format below and assembled once per process by
 * `wabt` (the WebAssembly project's own toolkit) when the indexer starts; worker threads get the
 * compiled module from the thread that starts them. Bodies are lz4_flex's "size prepended"
 * format: a u32 LE decoded size, then one LZ4 block.
 */
import wabt from 'wabt';

/**
 * decode(s, se, d, de): decodes the LZ4 block in [s, se) into [d, de) and answers the bytes
 * written, or -1 when the input is not a block that fits (every length and offset is checked
 * against both ends). Short literal runs and matches are copied 16 bytes at a time, so reads may
 * pass `se` and writes pass `de` by up to 16 bytes: the caller leaves that much room after both.
 * A match whose offset is under 8 overlaps what it writes and is copied byte by byte.
 */
const LZ4_WAT = `
(module
  (memory (export "memory") 1)
  (func (export "decode") (param $s i32) (param $se i32) (param $d i32) (param $de i32) (result i32)
    (local $d0 i32) (local $token i32) (local $len i32) (local $b i32) (local $off i32) (local $m i32) (local $n i32)
    (local.set $d0 (local.get $d))
    (block $fail
      (loop $seq
        (br_if $fail (i32.ge_u (local.get $s) (local.get $se)))
        (local.set $token (i32.load8_u (local.get $s)))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        ;; literals: length in the token's high half, 15 continues in bytes up to one under 255
        (local.set $len (i32.shr_u (local.get $token) (i32.const 4)))
        (if (i32.eq (local.get $len) (i32.const 15))
          (then
            (loop $more
              (br_if $fail (i32.ge_u (local.get $s) (local.get $se)))
              (local.set $b (i32.load8_u (local.get $s)))
              (local.set $s (i32.add (local.get $s) (i32.const 1)))
              (local.set $len (i32.add (local.get $len) (local.get $b)))
              (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
        (br_if $fail (i32.gt_u (local.get $len) (i32.sub (local.get $se) (local.get $s))))
        (br_if $fail (i32.gt_u (local.get $len) (i32.sub (local.get $de) (local.get $d))))
        (if (i32.le_u (local.get $len) (i32.const 16))
          (then
            (i64.store (local.get $d) (i64.load (local.get $s)))
            (i64.store offset=8 (local.get $d) (i64.load offset=8 (local.get $s))))
          (else (memory.copy (local.get $d) (local.get $s) (local.get $len))))
        (local.set $s (i32.add (local.get $s) (local.get $len)))
        (local.set $d (i32.add (local.get $d) (local.get $len)))
        ;; the last sequence is literals only
        (if (i32.eq (local.get $s) (local.get $se)) (then (return (i32.sub (local.get $d) (local.get $d0)))))
        ;; match: a 16-bit offset back into what is written, length in the token's low half + 4
        (br_if $fail (i32.lt_u (i32.sub (local.get $se) (local.get $s)) (i32.const 2)))
        (local.set $off (i32.load16_u (local.get $s)))
        (local.set $s (i32.add (local.get $s) (i32.const 2)))
        (br_if $fail (i32.eqz (local.get $off)))
        (br_if $fail (i32.gt_u (local.get $off) (i32.sub (local.get $d) (local.get $d0))))
        (local.set $len (i32.and (local.get $token) (i32.const 15)))
        (if (i32.eq (local.get $len) (i32.const 15))
          (then
            (loop $more
              (br_if $fail (i32.ge_u (local.get $s) (local.get $se)))
              (local.set $b (i32.load8_u (local.get $s)))
              (local.set $s (i32.add (local.get $s) (i32.const 1)))
              (local.set $len (i32.add (local.get $len) (local.get $b)))
              (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
        (local.set $len (i32.add (local.get $len) (i32.const 4)))
        (br_if $fail (i32.gt_u (local.get $len) (i32.sub (local.get $de) (local.get $d))))
        (local.set $m (i32.sub (local.get $d) (local.get $off)))
        (if (i32.ge_u (local.get $off) (i32.const 8))
          (then
            (if (i32.le_u (local.get $len) (i32.const 16))
              (then
                (i64.store (local.get $d) (i64.load (local.get $m)))
                (i64.store offset=8 (local.get $d) (i64.load offset=8 (local.get $m))))
              (else
                (if (i32.ge_u (local.get $off) (local.get $len))
                  (then (memory.copy (local.get $d) (local.get $m) (local.get $len)))
                  (else
                    ;; 8 bytes at a time: each load reads bytes already written
                    (local.set $n (i32.const 0))
                    (loop $copy8
                      (i64.store (i32.add (local.get $d) (local.get $n)) (i64.load (i32.add (local.get $m) (local.get $n))))
                      (local.set $n (i32.add (local.get $n) (i32.const 8)))
                      (br_if $copy8 (i32.lt_u (local.get $n) (local.get $len)))))))))
          (else
            (local.set $n (i32.const 0))
            (loop $copy1
              (i32.store8 (i32.add (local.get $d) (local.get $n)) (i32.load8_u (i32.add (local.get $m) (local.get $n))))
              (local.set $n (i32.add (local.get $n) (i32.const 1)))
              (br_if $copy1 (i32.lt_u (local.get $n) (local.get $len))))))
        (local.set $d (i32.add (local.get $d) (local.get $len)))
        (br $seq)))
    (i32.const -1)))
`;

/** Room the decoder may read or write past the ends it is given. */
const SLACK = 16;
const PAGE = 65_536;
/**
 * The scratch memory grows to fit the largest block decoded, up to this (compressed + decoded);
 * a larger block (one huge entry) is left to the caller's other decoder, so a worker's memory
 * stays bounded.
 */
export const LZ4_SCRATCH_MAX_BYTES = 64 << 20;

let compiled: Promise<WebAssembly.Module> | undefined;
let ready: WebAssembly.Module | undefined;

/** The decoder's module, assembled once per process (wabt). */
export function loadLz4Module(): Promise<WebAssembly.Module> {
  compiled ??= wabt().then((w) => {
    const parsed = w.parseWat('lz4.wat', LZ4_WAT, { bulk_memory: true });
    try {
      ready = new WebAssembly.Module(parsed.toBinary({}).buffer);
      return ready;
    } finally {
      parsed.destroy();
    }
  });
  return compiled;
}

/** The module once loadLz4Module has finished (to hand to worker threads), else undefined. */
export const lz4Module = (): WebAssembly.Module | undefined => ready;

/** One thread's decoder and its scratch memory. */
export class Lz4Scratch {
  private readonly memory: WebAssembly.Memory;
  private readonly decodeFn: (s: number, se: number, d: number, de: number) => number;

  constructor(module: WebAssembly.Module) {
    const { exports } = new WebAssembly.Instance(module);
    this.memory = exports.memory as WebAssembly.Memory;
    this.decodeFn = exports.decode as Lz4Scratch['decodeFn'];
  }

  /**
   * `body` (u32 LE decoded size, then an LZ4 block) decoded into the scratch memory: a view that
   * stays valid until this scratch decodes again (copy what must live longer); undefined when
   * the block is larger than LZ4_SCRATCH_MAX_BYTES. Throws on a body that is not a block.
   */
  decode(body: Uint8Array): Buffer | undefined {
    if (body.length < 4) throw new Error('corrupt block: no size');
    const size = (body[0] | (body[1] << 8) | (body[2] << 16) | (body[3] << 24)) >>> 0;
    // Input at 0, output after it (8-byte aligned: the block's columns are read as typed arrays).
    const out = (body.length + SLACK + 7) & ~7;
    const need = out + size + SLACK;
    if (need > LZ4_SCRATCH_MAX_BYTES) return undefined;
    if (need > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((need - this.memory.buffer.byteLength) / PAGE));
    const mem = new Uint8Array(this.memory.buffer);
    mem.set(body, 0);
    const n = this.decodeFn(4, body.length, out, out + size);
    if (n !== size) throw new Error(`corrupt block: ${n < 0 ? 'bad LZ4 data' : `${n} bytes decoded of ${size}`}`);
    return Buffer.from(this.memory.buffer, out, size);
  }
}
