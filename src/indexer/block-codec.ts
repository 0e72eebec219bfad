/**
 * The block: how an indexer stores entries. One block holds up to BLOCK_TARGET_BYTES of entries of
 * one tag and one UTC day, newest first, packed column by column and compressed with LZ4
 * (lz4-napi: Rust's lz4_flex with prebuilt binaries for every platform npm serves). A block row
 * carries its tag, time range and entry count beside the compressed body, so PostgreSQL selects
 * blocks by tag and time without opening them; a scan decompresses a whole block at once and
 * looks for substrings in its data area with one `Buffer.indexOf` (see BlockReader).
 *
 * Payload layout (little endian; every array section starts 8-byte aligned):
 *
 *   u32 magic 'BLK1' | u32 n | u32 sources | u32 source bytes | u32 EV bytes | u32 data bytes
 *   f64[n]  times, newest first: the first in epoch µs, then each as its distance to the one before
 *   u32[n]  data lengths   (entry i's data follows entry i-1's)
 *   u32[n]  source index   (into the source table)
 *   u32[n]  EV lengths     (0: the entry has no EVs)
 *
 * Distances and lengths rather than times and offsets: small numbers whose high bytes are zero,
 * which LZ4 packs better (0.356x of the raw bytes instead of 0.385x on the bench's lines).
 *
 * Decoding: lz4-napi, or once a thread has called useLz4Module, the WebAssembly decoder of
 * lz4-wasm.ts (same format, about twice as fast, and into reused memory: BlockReader.transient).
 *   u32[sources] source ends, then the source bytes (UTF-8)
 *   EV bytes   (per entry: the JSON of its [name, value] pairs, as the old `evs` column held them)
 *   data bytes (the entries' data, concatenated)
 */
import { compress, uncompressSync } from 'lz4-napi';
import { Lz4Scratch } from './lz4-wasm';

/** A block is cut once its entries' data reach this size (1 MiB). */
export const BLOCK_TARGET_BYTES = 1 << 20;
/** ... or once they hold this many entries (tiny or empty entries would make huge columns otherwise). */
export const BLOCK_MAX_ENTRIES = 65_536;
/** Blocks under both of these are merged by the compaction (see BlockCompaction). */
export const SMALL_BLOCK_BYTES = BLOCK_TARGET_BYTES / 4;
export const SMALL_BLOCK_ENTRIES = BLOCK_MAX_ENTRIES / 4;
/** Blocks are spread over this many shards: parallel scans split by shard (see ScanSplit). */
export const SHARDS = 16;

const MAGIC = 0x314b4c42; // 'BLK1'
const HEADER = 24;
const align8 = (n: number) => (n + 7) & ~7;

/** An entry as a block stores it: `evs` is its EV JSON (or null). */
export interface BlockEntry {
  /** epoch µs */
  ts: number;
  src: string;
  data: Buffer;
  evs: string | null;
}

/** One block ready to store: its row's columns and its (uncompressed) payload. */
export interface PackedBlock {
  tag: number;
  /** oldest and newest entry, epoch µs */
  lo: number;
  hi: number;
  n: number;
  /** bytes of the entries' data */
  raw: number;
  payload: Buffer;
}

/**
 * Packs entries of one tag and day into blocks of at most BLOCK_TARGET_BYTES of data and
 * BLOCK_MAX_ENTRIES entries each (an entry larger than that gets a block of its own). Sorts
 * `entries` newest first, in place.
 */
export function packBlocks(tag: number, entries: BlockEntry[]): PackedBlock[] {
  entries.sort((a, b) => b.ts - a.ts);
  const out: PackedBlock[] = [];
  let from = 0;
  let bytes = 0;
  for (let i = 0; i < entries.length; i++) {
    if (i > from && (bytes + entries[i].data.length > BLOCK_TARGET_BYTES || i - from >= BLOCK_MAX_ENTRIES)) {
      out.push(packOne(tag, entries, from, i));
      from = i;
      bytes = 0;
    }
    bytes += entries[i].data.length;
  }
  if (from < entries.length) out.push(packOne(tag, entries, from, entries.length));
  return out;
}

function packOne(tag: number, all: BlockEntry[], from: number, to: number): PackedBlock {
  const n = to - from;
  const sources = new Map<string, number>();
  const srcIdx = new Uint32Array(n);
  const evParts: Buffer[] = [];
  let dataBytes = 0;
  let evBytes = 0;
  for (let i = 0; i < n; i++) {
    const e = all[from + i];
    let s = sources.get(e.src);
    if (s === undefined) sources.set(e.src, (s = sources.size));
    srcIdx[i] = s;
    dataBytes += e.data.length;
    if (e.evs) {
      const b = Buffer.from(e.evs, 'utf8');
      evParts.push(b);
      evBytes += b.length;
    }
  }
  const srcBufs = [...sources.keys()].map((s) => Buffer.from(s, 'utf8'));
  const srcBytes = srcBufs.reduce((a, b) => a + b.length, 0);
  const tsAt = HEADER;
  const dataEndsAt = tsAt + 8 * n;
  const srcIdxAt = dataEndsAt + 4 * n;
  const evEndsAt = srcIdxAt + 4 * n;
  const srcEndsAt = align8(evEndsAt + 4 * n);
  const srcAt = srcEndsAt + 4 * srcBufs.length;
  const evAt = srcAt + srcBytes;
  const dataAt = evAt + evBytes;
  // Zeroed (the alignment gap stays 0); the columns written through a DataView (little endian
  // on any host), the data with TypedArray#set: per entry, no Buffer method call.
  const payload = Buffer.alloc(dataAt + dataBytes);
  const view = new DataView(payload.buffer, payload.byteOffset, payload.length);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, n, true);
  view.setUint32(8, srcBufs.length, true);
  view.setUint32(12, srcBytes, true);
  view.setUint32(16, evBytes, true);
  view.setUint32(20, dataBytes, true);
  let data = 0;
  let ev = 0;
  let evPart = 0;
  for (let i = 0; i < n; i++) {
    const e = all[from + i];
    view.setFloat64(tsAt + 8 * i, i === 0 ? e.ts : all[from + i - 1].ts - e.ts, true);
    payload.set(e.data, dataAt + data);
    data += e.data.length;
    view.setUint32(dataEndsAt + 4 * i, e.data.length, true);
    view.setUint32(srcIdxAt + 4 * i, srcIdx[i], true);
    if (e.evs) {
      const part = evParts[evPart++];
      payload.set(part, evAt + ev);
      ev += part.length;
      view.setUint32(evEndsAt + 4 * i, part.length, true);
    }
  }
  let src = 0;
  srcBufs.forEach((b, k) => {
    src += b.copy(payload, srcAt + src);
    view.setUint32(srcEndsAt + 4 * k, src, true);
  });
  return { tag, lo: all[to - 1].ts, hi: all[from].ts, n, raw: dataBytes, payload };
}

/** Compresses a payload on libuv's thread pool (ingest: never on the HTTP event loop). */
export const compressBlock = (payload: Buffer): Promise<Buffer> => compress(payload);

/** `out[i]` = `steps[0] + sign * (steps[1] + ... + steps[i])`: times from distances (sign -1), ends from lengths (1). */
function prefixSums<T extends Float64Array | Uint32Array>(steps: T, out: T, sign: 1 | -1): T {
  let acc = 0;
  for (let i = 0; i < steps.length; i++) out[i] = acc = i === 0 ? steps[0] : acc + sign * steps[i];
  return out;
}

let scratch: Lz4Scratch | undefined;

/** The column arrays of this thread's transient readers: reused, grown as needed (no allocation per block read). */
let columns = { ts: new Float64Array(0), dataEnds: new Uint32Array(0), evEnds: new Uint32Array(0) };
function transientColumns(n: number): typeof columns {
  if (columns.ts.length < n) {
    const cap = Math.max(n, 2 * columns.ts.length, 1024);
    columns = { ts: new Float64Array(cap), dataEnds: new Uint32Array(cap), evEnds: new Uint32Array(cap) };
  }
  return { ts: columns.ts.subarray(0, n), dataEnds: columns.dataEnds.subarray(0, n), evEnds: columns.evEnds.subarray(0, n) };
}

/** From now on this thread decodes blocks with the WebAssembly decoder (lz4-wasm.ts) built from `module`. */
export function useLz4Module(module: WebAssembly.Module): void {
  scratch = new Lz4Scratch(module);
}

/** Whether this thread decodes with the WebAssembly decoder. */
export const usesLz4Module = (): boolean => scratch !== undefined;

/** A decompressed block: its columns as typed arrays over the payload, its data as one buffer. */
export class BlockReader {
  readonly n: number;
  readonly ts: Float64Array;
  readonly dataEnds: Uint32Array;
  /** The entries' data, concatenated (search it whole). */
  readonly data: Buffer;
  private readonly srcIdx: Uint32Array;
  private readonly evEnds: Uint32Array;
  private readonly sources: string[];
  private readonly evs: Buffer;

  /** `reuseColumns`: the time and end columns go into this thread's arrays for transient readers (BlockReader.transient). */
  constructor(payload: Buffer, reuseColumns = false) {
    // Typed arrays need aligned offsets: copy a payload that does not start on 8 bytes.
    const p = payload.byteOffset % 8 === 0 ? payload : Buffer.from(payload);
    if (p.length < HEADER || p.readUInt32LE(0) !== MAGIC) throw new Error('not a block (bad magic)');
    const n = (this.n = p.readUInt32LE(4));
    const nsrc = p.readUInt32LE(8);
    const srcBytes = p.readUInt32LE(12);
    const evBytes = p.readUInt32LE(16);
    const dataBytes = p.readUInt32LE(20);
    const base = p.byteOffset;
    const tsAt = HEADER;
    const dataEndsAt = tsAt + 8 * n;
    const srcIdxAt = dataEndsAt + 4 * n;
    const evEndsAt = srcIdxAt + 4 * n;
    const srcEndsAt = align8(evEndsAt + 4 * n);
    const srcAt = srcEndsAt + 4 * nsrc;
    const evAt = srcAt + srcBytes;
    const dataAt = evAt + evBytes;
    if (dataAt + dataBytes !== p.length) throw new Error('not a block (bad length)');
    const cols = reuseColumns ? transientColumns(n) : { ts: new Float64Array(n), dataEnds: new Uint32Array(n), evEnds: new Uint32Array(n) };
    this.ts = prefixSums(new Float64Array(p.buffer, base + tsAt, n), cols.ts, -1);
    this.dataEnds = prefixSums(new Uint32Array(p.buffer, base + dataEndsAt, n), cols.dataEnds, 1);
    this.srcIdx = new Uint32Array(p.buffer, base + srcIdxAt, n);
    this.evEnds = prefixSums(new Uint32Array(p.buffer, base + evEndsAt, n), cols.evEnds, 1);
    const srcEnds = new Uint32Array(p.buffer, base + srcEndsAt, nsrc);
    this.sources = Array.from(srcEnds, (end, k) => p.toString('utf8', srcAt + (k ? srcEnds[k - 1] : 0), srcAt + end));
    this.evs = p.subarray(evAt, dataAt);
    this.data = p.subarray(dataAt);
  }

  /** The block of a compressed body, in memory of its own. */
  static decompress(body: Buffer): BlockReader {
    const view = scratch?.decode(body);
    return new BlockReader(view ? Buffer.from(view) : uncompressSync(body));
  }

  /**
   * The block of a compressed body, decoded into this thread's scratch memory when it has one
   * (useLz4Module): valid only until the next `transient` call in this thread. For reading a
   * block through before the next; `decompress` for blocks that are kept.
   */
  static transient(body: Buffer): BlockReader {
    return new BlockReader(scratch?.decode(body) ?? uncompressSync(body), true);
  }

  dataStart(i: number): number {
    return i === 0 ? 0 : this.dataEnds[i - 1];
  }

  /** Entry i's data as a view into the block (copy it to keep it past the block). */
  dataView(i: number): Buffer {
    return this.data.subarray(this.dataStart(i), this.dataEnds[i]);
  }

  src(i: number): string {
    return this.sources[this.srcIdx[i]];
  }

  /** Entry i's EV JSON, or null. */
  evJson(i: number): string | null {
    const from = i === 0 ? 0 : this.evEnds[i - 1];
    return this.evEnds[i] === from ? null : this.evs.toString('utf8', from, this.evEnds[i]);
  }

  /** Entry i as a BlockEntry with its own copy of the data (compaction, migration). */
  entry(i: number): BlockEntry {
    return { ts: this.ts[i], src: this.src(i), data: Buffer.from(this.dataView(i)), evs: this.evJson(i) };
  }

  /**
   * Indexes of the entries whose data contains `needle`, ascending: one `indexOf` over the whole
   * data area, a match mapped to its entry by binary search over the data ends; a match that
   * spans two entries is not one.
   */
  entriesContaining(needle: Buffer): number[] {
    const out: number[] = [];
    const ends = this.dataEnds;
    let at = this.data.indexOf(needle, 0);
    let i = 0;
    while (at >= 0) {
      // The entry holding byte `at`: the first i with ends[i] > at (searching from the last one found).
      let lo = i;
      let hi = this.n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ends[mid] > at) hi = mid;
        else lo = mid + 1;
      }
      i = lo;
      if (at + needle.length <= ends[i]) {
        out.push(i);
        if (++i >= this.n) break;
        at = this.data.indexOf(needle, ends[i - 1]);
      } else {
        at = this.data.indexOf(needle, at + 1);
      }
    }
    return out;
  }
}
