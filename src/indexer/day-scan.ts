/**
 * The scan of one day partition by a scan worker, in one snapshot (`REPEATABLE READ`: a
 * compaction committing meanwhile is seen wholly or not at all). Order-free queries read the
 * blocks in any order; newest-first ones merge them (NewestFirstMerge), or, when the blocks' time
 * ranges overlap so much that merging would hold too many of them at once, read the day in time
 * windows that each fit in memory.
 */
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { Entry } from '../query';
import { BlockReader } from './block-codec';
import { BlockFilter, BlockRow, NewestFirstMerge, selectEntries, toEntries, toEntry } from './block-scan';
import { copyBinaryTuples } from './copy-binary';
import { DAY_MS_CONST, timestampLiteral } from './indexer.schema';
import { ScanSplit } from './scan.protocol';

/** A newest-first merge holds the blocks whose time ranges overlap: at most this much (raw). */
export const MERGE_BUDGET_BYTES = 64 << 20;
/** Beyond it, the day is read in windows of about this much (estimated from the block rows)... */
export const WINDOW_TARGET_BYTES = 16 << 20;
/** ... and a window found to hold more than this (the estimate was wrong) is halved and read again. */
export const WINDOW_MAX_BYTES = 64 << 20;

const LO_HI = '(extract(epoch FROM lo) * 1000000)::float8 AS lo, (extract(epoch FROM hi) * 1000000)::float8 AS hi';
/** The columns of BlockRow, in order (read from a binary COPY by `toBlockRow`). */
const BLOCK_COLUMNS = `tag, ${LO_HI}, n, body`;

const toBlockRow = (f: Array<Buffer | null>): BlockRow => ({
  tag: f[0]!.readInt16BE(0),
  lo: f[1]!.readDoubleBE(0),
  hi: f[2]!.readDoubleBE(0),
  n: f[3]!.readInt32BE(0),
  body: f[4]!,
});

/** A timestamptz literal of epoch µs (blocks are read with COPY, which takes no parameters). */
const at = (us: number): string => `'${timestampLiteral(us)}'::timestamptz`;

/** Which blocks a day scan reads: the day partition (by `lo`), overlap with the range, the tags. */
export interface ScanBounds {
  dayStart: number;
  /** end of the range within the day, and its start (µs) */
  to: number;
  from: number;
  tagIds: number[];
}

function where(b: ScanBounds): string {
  const tags = b.tagIds.map((t) => String(Math.trunc(t))).join(',');
  return `lo >= ${at(b.dayStart)} AND lo < ${at(b.to)} AND hi >= ${at(b.from)} AND tag = ANY('{${tags}}'::smallint[])`;
}

/**
 * The scan statement of one day: the blocks of the tags that overlap the time range (the
 * partition by `lo`, the rest by the block row's columns; bodies are never opened for this),
 * newest block first when the query needs entries in order, and this job's shards when an
 * order-free search is split.
 */
export function buildScanSql(bounds: ScanBounds, ordered: boolean, split?: ScanSplit): string {
  const shards = split ? ` AND shard % ${Math.floor(split.of)} = ${Math.floor(split.part)}` : '';
  return `SELECT ${BLOCK_COLUMNS} FROM block WHERE ${where(bounds)}${shards}${ordered ? ' ORDER BY hi DESC' : ''}`;
}

/** A block row without its body: what planning a newest-first read needs. */
export interface BlockMeta {
  id: string;
  lo: number;
  hi: number;
  raw: number;
}

/** The most raw bytes of blocks a newest-first merge would hold at once (blocks overlapping in time). */
export function peakOverlap(blocks: BlockMeta[]): number {
  // Sweeping from the newest time down: a block opens at its hi and closes below its lo.
  const events = blocks.flatMap((b) => [
    { t: b.hi, open: true, raw: b.raw },
    { t: b.lo, open: false, raw: b.raw },
  ]);
  events.sort((x, y) => y.t - x.t || Number(y.open) - Number(x.open));
  let now = 0;
  let peak = 0;
  for (const e of events) {
    now += e.open ? e.raw : -e.raw;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** Estimated raw bytes in [a, b) µs, taking each block's entries as spread evenly over its range. */
export function estimateBytes(blocks: BlockMeta[], a: number, b: number): number {
  let sum = 0;
  for (const k of blocks) {
    const overlap = Math.min(b, k.hi + 1) - Math.max(a, k.lo);
    if (overlap > 0) sum += (k.raw * overlap) / (k.hi + 1 - k.lo);
  }
  return sum;
}

/** The start of the next window ending at `top`: the earliest time (at least `bottom`) whose window holds at most `target`. */
export function windowStart(blocks: BlockMeta[], bottom: number, top: number, target: number): number {
  if (estimateBytes(blocks, bottom, top) <= target) return bottom;
  let lo = bottom; // est(lo, top) > target
  let hi = top - 1; // a 1 µs window is the smallest there is
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (estimateBytes(blocks, mid, top) <= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

export interface DayScanContext {
  client: Client;
  tagIds: number[];
  split?: ScanSplit;
  ordered: boolean;
  /** the pushdown, with the search's time range */
  filter: BlockFilter;
  /** entries per batch handed to `emit` */
  batchSize: number;
  /** hands a batch to the pipeline; every entry still to come is older than `watermark` (ordered scans) */
  emit(entries: Entry[], watermark: number): Promise<void>;
  /** memory bounds of newest-first reads (tests make them small) */
  budgets?: { merge: number; windowTarget: number; windowMax: number };
}

const BUDGETS = { merge: MERGE_BUDGET_BYTES, windowTarget: WINDOW_TARGET_BYTES, windowMax: WINDOW_MAX_BYTES };

export class DayScan {
  private pending: Entry[] = [];
  private readonly dayStart: number;
  private readonly dayEnd: number;
  /** the part of the search's range in this day, µs */
  private readonly from: number;
  private readonly to: number;
  private readonly budgets: NonNullable<DayScanContext['budgets']>;

  constructor(
    private readonly ctx: DayScanContext,
    day: number,
  ) {
    this.dayStart = day * DAY_MS_CONST * 1000;
    this.dayEnd = (day + 1) * DAY_MS_CONST * 1000;
    this.from = Math.max(this.dayStart, ctx.filter.fromUs);
    this.to = Math.min(this.dayEnd, ctx.filter.toUs);
    this.budgets = ctx.budgets ?? BUDGETS;
  }

  private get bounds(): ScanBounds {
    return { dayStart: this.dayStart, to: this.to, from: this.from, tagIds: this.ctx.tagIds };
  }

  async run(): Promise<void> {
    const { client } = this.ctx;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (!this.ctx.ordered) await this.readUnordered();
    else {
      const meta = (await client.query<BlockMeta>(`SELECT id::text AS id, ${LO_HI}, raw FROM block WHERE ${where(this.bounds)}`)).rows;
      if (peakOverlap(meta) <= this.budgets.merge) await this.readMerged();
      else await this.readInWindows(meta);
    }
    // Order-free scans only know their watermark once the day is done.
    await this.flush(this.ctx.ordered && this.pending.length ? this.pending[this.pending.length - 1].ts : this.to);
    await client.query('COMMIT');
  }

  /** Queues an entry; a full batch is handed on, and only then is there something to await. */
  private push(e: Entry): Promise<void> | undefined {
    this.pending.push(e);
    return this.pending.length >= this.ctx.batchSize ? this.flush(this.ctx.ordered ? e.ts : this.to) : undefined;
  }

  private async pushAll(entries: Entry[]): Promise<void> {
    for (const e of entries) {
      const full = this.push(e);
      if (full) await full;
    }
  }

  private async flush(watermark: number): Promise<void> {
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    await this.ctx.emit(batch, watermark);
  }

  /** Block rows through a binary COPY (see copyBinaryTuples), in the day's snapshot. */
  private async *blocks(sql: string): AsyncGenerator<BlockRow> {
    const stream = this.ctx.client.query(copyTo(`COPY (${sql}) TO STDOUT (FORMAT binary)`));
    for await (const fields of copyBinaryTuples(stream)) yield toBlockRow(fields);
  }

  private async readUnordered(): Promise<void> {
    for await (const row of this.blocks(buildScanSql(this.bounds, false, this.ctx.split))) {
      const block = BlockReader.transient(row.body);
      await this.pushAll(toEntries(block, selectEntries(block, row, this.ctx.filter), row.tag));
    }
  }

  /** Newest first: blocks come by newest entry, and everything at or after that can go before the block is opened. */
  private async readMerged(): Promise<void> {
    const merge = new NewestFirstMerge();
    const drain = async (bound: number) => {
      for (let got = merge.take(bound, this.ctx.batchSize); got.length; got = merge.take(bound, this.ctx.batchSize)) await this.pushAll(got);
    };
    for await (const row of this.blocks(buildScanSql(this.bounds, true))) {
      const block = BlockReader.decompress(row.body);
      await drain(row.hi);
      merge.add(block, selectEntries(block, row, this.ctx.filter), row.tag);
    }
    await drain(Number.NEGATIVE_INFINITY);
  }

  /**
   * Newest first over blocks that overlap too much to merge: time windows from the newest down,
   * each sized from the block rows to fit in memory, each reading the blocks that overlap it
   * and sorting what falls inside. A window that turns out larger is halved and read again; a
   * window of one microsecond needs no sort and streams.
   */
  private async readInWindows(meta: BlockMeta[]): Promise<void> {
    let top = this.to;
    while (top > this.from) {
      let a = windowStart(meta, this.from, top, this.budgets.windowTarget);
      let entries = await this.readWindow(meta, a, top);
      while (!entries) {
        a = Math.floor((a + top) / 2);
        entries = await this.readWindow(meta, a, top);
      }
      entries.sort((x, y) => y.ts - x.ts);
      await this.pushAll(entries);
      top = a;
    }
  }

  /** The entries in [a, b), or null when they are more than the window maximum (a one-µs window streams them and gives []). */
  private async readWindow(meta: BlockMeta[], a: number, b: number): Promise<Entry[] | null> {
    const ids = meta.filter((k) => k.hi >= a && k.lo < b).map((k) => k.id);
    const filter = { ...this.ctx.filter, fromUs: a, toUs: b };
    const stream = b - a <= 1;
    const out: Entry[] = [];
    let bytes = 0;
    let over = false;
    const sql = `SELECT ${BLOCK_COLUMNS} FROM block WHERE lo >= ${at(this.dayStart)} AND lo < ${at(this.dayEnd)} AND id = ANY('{${ids.join(',')}}'::int8[])`;
    for await (const row of this.blocks(sql)) {
      // Past the bound, the rest of the COPY is read and dropped (the connection stays usable).
      if (over) continue;
      const block = BlockReader.transient(row.body);
      for (const i of selectEntries(block, row, filter)) {
        const e = toEntry(block, i, row.tag);
        if (stream) {
          const full = this.push(e);
          if (full) await full;
          continue;
        }
        out.push(e);
        bytes += e.data.length;
        if (bytes > this.budgets.windowMax) {
          over = true;
          break;
        }
      }
    }
    return over ? null : out;
  }
}
