/**
 * What a scan does with the blocks PostgreSQL hands it: selects the entries of a block that can
 * match (the pushed-down substrings, found with one `indexOf` over the block's data; the time
 * range, checked per entry only in blocks at the range's edges) and merges the blocks of a day
 * newest first (NewestFirstMerge). No PostgreSQL here: block-scan.spec.ts tests it on its own.
 */
import { Entry, EVValue, Pushdown, SerializedEV } from '../query';
import { BlockReader } from './block-codec';

/** A block row as the scan fetches it (binary FETCH: times as float8 µs). */
export interface BlockRow {
  tag: number;
  lo: number;
  hi: number;
  n: number;
  body: Buffer;
}

/** The pushed-down substring tests of a query (see Pushdown.grep), as bytes. */
export interface BlockFilter {
  /** every piece must occur in the entry's data */
  must: Buffer[];
  /** the entry's data must not contain any of these */
  mustNot: Buffer[];
  fromUs: number;
  toUs: number;
}

export function blockFilter(pushdown: Pick<Pushdown, 'grep'>, fromUs: number, toUs: number): BlockFilter {
  const must: Buffer[] = [];
  const mustNot: Buffer[] = [];
  for (const g of pushdown.grep) {
    const pieces = g.pattern.split('*').filter((p) => p.length > 0);
    if (g.invert) {
      // Only exact patterns (no wildcard) can be excluded up front.
      if (!g.pattern.includes('*') && pieces.length) mustNot.push(Buffer.from(pieces[0], 'utf8'));
    } else {
      // Each piece must occur (a necessary condition; the pipeline checks the order).
      for (const p of pieces) must.push(Buffer.from(p, 'utf8'));
    }
  }
  return { must, mustNot, fromUs, toUs };
}

/**
 * Indexes (ascending: newest first) of the entries of `block` that may match: in the time range
 * and passing the substring tests. The block's whole data is searched for the first piece; the
 * other tests run on the few entries left.
 */
export function selectEntries(block: BlockReader, row: Pick<BlockRow, 'lo' | 'hi'>, f: BlockFilter): number[] {
  let idx: number[];
  if (f.must.length) {
    idx = block.entriesContaining(f.must[0]);
    for (let k = 1; k < f.must.length && idx.length; k++) {
      const piece = f.must[k];
      idx = idx.filter((i) => block.dataView(i).includes(piece));
    }
  } else {
    idx = new Array<number>(block.n);
    for (let i = 0; i < block.n; i++) idx[i] = i;
  }
  for (const piece of f.mustNot) {
    if (!idx.length) break;
    const drop = new Set(block.entriesContaining(piece));
    if (drop.size) idx = idx.filter((i) => !drop.has(i));
  }
  // Only a block at an edge of the range holds entries outside it.
  if (row.lo < f.fromUs || row.hi >= f.toUs) idx = idx.filter((i) => block.ts[i] >= f.fromUs && block.ts[i] < f.toUs);
  return idx;
}

/** Entry i of a block, with its own copy of the data (the block is dropped once read). */
export function toEntry(block: BlockReader, i: number, tag: number): Entry {
  return entryWith(block, i, tag, Buffer.from(block.dataView(i)));
}

function entryWith(block: BlockReader, i: number, tag: number, data: Buffer): Entry {
  const evs = new Map<string, EVValue>();
  const json = block.evJson(i);
  if (json) {
    for (const [k, v] of JSON.parse(json) as Array<[string, SerializedEV]>) evs.set(k, typeof v === 'object' && v !== null ? Buffer.from(v.b64, 'base64') : v);
  }
  return { ts: block.ts[i], tag, src: block.src(i), data, evs };
}

/**
 * The selected entries of a block (selectEntries), their data out of the block's memory. When
 * at least half the block is selected (a search without a substring to push down), the data
 * area is copied once and the entries are views into that copy: one allocation per block, not
 * one per entry, and at most twice the selected bytes held. Otherwise each entry gets its own.
 */
export function toEntries(block: BlockReader, idx: number[], tag: number): Entry[] {
  const out = new Array<Entry>(idx.length);
  if (idx.length * 2 < block.n) {
    for (let k = 0; k < idx.length; k++) out[k] = toEntry(block, idx[k], tag);
    return out;
  }
  const data = Buffer.from(block.data);
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k];
    out[k] = entryWith(block, i, tag, data.subarray(block.dataStart(i), block.dataEnds[i]));
  }
  return out;
}

/** The selected entries of one opened block, read newest first. */
interface Run {
  block: BlockReader;
  idx: number[];
  pos: number;
  tag: number;
}

const head = (r: Run): number => r.block.ts[r.idx[r.pos]];

/**
 * Merges the runs of the blocks of one day newest first. Blocks arrive by newest entry (`hi`)
 * descending; an entry can go out once no block still to come can hold a newer one, so a block
 * is opened only when the merge reaches its newest entry, and memory holds the blocks whose
 * time ranges overlap (one or two for logs that arrive in time order).
 */
export class NewestFirstMerge {
  /** max-heap of runs by their next entry's time */
  private readonly heap: Run[] = [];

  get open(): number {
    return this.heap.length;
  }

  add(block: BlockReader, idx: number[], tag: number): void {
    if (!idx.length) return;
    this.heap.push({ block, idx, pos: 0, tag });
    this.up(this.heap.length - 1);
  }

  /** Takes up to `max` entries at or after `bound` (epoch µs; -Infinity: all), newest first. */
  take(bound: number, max: number): Entry[] {
    const out: Entry[] = [];
    const h = this.heap;
    while (h.length && out.length < max && head(h[0]) >= bound) {
      const r = h[0];
      out.push(toEntry(r.block, r.idx[r.pos], r.tag));
      if (++r.pos === r.idx.length) {
        const last = h.pop()!;
        if (h.length) {
          h[0] = last;
          this.down(0);
        }
      } else {
        this.down(0);
      }
    }
    return out;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (head(h[p]) >= head(h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && head(h[l]) > head(h[m])) m = l;
      if (r < h.length && head(h[r]) > head(h[m])) m = r;
      if (m === i) return;
      [h[m], h[i]] = [h[i], h[m]];
      i = m;
    }
  }
}
