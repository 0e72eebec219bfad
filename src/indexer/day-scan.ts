/**
 * The scan of one day partition by a scan worker, in one snapshot (`REPEATABLE READ`: a
 * compaction committing meanwhile is seen wholly or not at all). Order-free queries read the
 * blocks in any order; newest-first ones merge them (NewestFirstMerge), or, when the blocks' time
 * ranges overlap so much that merging would hold too many of them at once, read the day in time
 * windows that each fit in memory.
 */
import { Client } from 'pg';
import { Entry } from '../query';
import { BlockReader } from './block-codec';
import { BlockFilter, BlockRow, NewestFirstMerge, selectEntries, toEntry } from './block-scan';
import { DAY_MS_CONST } from './indexer.schema';
import { ScanSplit } from './scan.protocol';

/** Blocks per FETCH: a few MiB at most, one FETCH in flight while the last one is scanned. */
const BLOCKS_PER_FETCH = 4;
/** A newest-first merge holds the blocks whose time ranges overlap: at most this much (raw). */
export const MERGE_BUDGET_BYTES = 64 << 20;
/** Beyond it, the day is read in windows of about this much (estimated from the block rows)... */
export const WINDOW_TARGET_BYTES = 16 << 20;
/** ... and a window found to hold more than this (the estimate was wrong) is halved and read again. */
export const WINDOW_MAX_BYTES = 64 << 20;

const LO_HI = '(extract(epoch FROM lo) * 1000000)::float8 AS lo, (extract(epoch FROM hi) * 1000000)::float8 AS hi';
const BLOCK_COLUMNS = `tag, ${LO_HI}, n, body`;

/** Params: day start, end of the range in the day, start of the range, tags. */
const WHERE = 'lo >= $1 AND lo < $2 AND hi >= $3 AND tag = ANY($4::smallint[])';

/**
 * The scan statement of one day: the blocks of the tags that overlap the time range (the
 * partition by `lo`, the rest by the block row's columns; bodies are never opened for this),
 * newest block first when the query needs entries in order, and this job's shards when an
 * order-free search is split.
 */
export function buildScanSql(ordered: boolean, split?: ScanSplit): string {
  const shards = split ? ` AND shard % ${Math.floor(split.of)} = ${Math.floor(split.part)}` : '';
  return `SELECT ${BLOCK_COLUMNS} FROM block WHERE ${WHERE}${shards}${ordered ? ' ORDER BY hi DESC' : ''}`;
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

  async run(): Promise<void> {
    const { client } = this.ctx;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (!this.ctx.ordered) await this.readUnordered();
    else {
      const meta = (await client.query<BlockMeta>(`SELECT id::text AS id, ${LO_HI}, raw FROM block WHERE ${WHERE}`, this.params())).rows;
      if (peakOverlap(meta) <= this.budgets.merge) await this.readMerged();
      else await this.readInWindows(meta);
    }
    // Order-free scans only know their watermark once the day is done.
    await this.flush(this.ctx.ordered && this.pending.length ? this.pending[this.pending.length - 1].ts : this.to);
    await client.query('COMMIT');
  }

  private params(): unknown[] {
    return [new Date(this.dayStart / 1000), new Date(this.to / 1000), new Date(this.from / 1000), this.ctx.tagIds];
  }

  private async push(e: Entry): Promise<void> {
    this.pending.push(e);
    if (this.pending.length >= this.ctx.batchSize) await this.flush(this.ctx.ordered ? e.ts : this.to);
  }

  private async flush(watermark: number): Promise<void> {
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    await this.ctx.emit(batch, watermark);
  }

  /** Block rows through a cursor, BLOCKS_PER_FETCH at a time, the next FETCH in flight. */
  private async *blocks(name: string, sql: string, params: unknown[]): AsyncGenerator<BlockRow> {
    const { client } = this.ctx;
    await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params);
    const fetch = { text: `FETCH ${BLOCKS_PER_FETCH} FROM ${name}`, binary: true };
    let next: Promise<{ rows: BlockRow[] }> | undefined = client.query<BlockRow>(fetch);
    while (next) {
      const rows: BlockRow[] = (await next).rows;
      next = rows.length === BLOCKS_PER_FETCH ? client.query<BlockRow>(fetch) : undefined;
      next?.catch(() => undefined); // awaited on the next turn; a failure then ends the scan
      yield* rows;
    }
    await client.query(`CLOSE ${name}`);
  }

  private async readUnordered(): Promise<void> {
    for await (const row of this.blocks('scan', buildScanSql(false, this.ctx.split), this.params())) {
      const block = BlockReader.decompress(row.body);
      for (const i of selectEntries(block, row, this.ctx.filter)) await this.push(toEntry(block, i, row.tag));
    }
  }

  /** Newest first: blocks come by newest entry, and everything at or after that can go before the block is opened. */
  private async readMerged(): Promise<void> {
    const merge = new NewestFirstMerge();
    const drain = async (bound: number) => {
      for (let got = merge.take(bound, this.ctx.batchSize); got.length; got = merge.take(bound, this.ctx.batchSize)) {
        for (const e of got) await this.push(e);
      }
    };
    for await (const row of this.blocks('scan', buildScanSql(true), this.params())) {
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
      for (const e of entries) await this.push(e);
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
    const sql = `SELECT ${BLOCK_COLUMNS} FROM block WHERE lo >= $1 AND lo < $2 AND id = ANY($3::int8[])`;
    for await (const row of this.blocks('win', sql, [new Date(this.dayStart / 1000), new Date(this.dayEnd / 1000), ids])) {
      const block = BlockReader.decompress(row.body);
      for (const i of selectEntries(block, row, filter)) {
        const e = toEntry(block, i, row.tag);
        if (stream) {
          await this.push(e);
          continue;
        }
        out.push(e);
        bytes += e.data.length;
        if (bytes > this.budgets.windowMax) {
          await this.ctx.client.query('CLOSE win');
          return null;
        }
      }
    }
    return out;
  }
}
