/**
 * The chart's cells, combined as entries arrive. While at most MAX_BUCKETS distinct timestamps
 * were seen, cells are keyed by exact time; beyond, by the "nice" width the span seen so far
 * calls for. The widths divide each other (1 s | 5 s | 10 s | ... | 1 d | 7 d), and the final
 * width is a multiple of any width used before (the span only grows), so re-keying the cells to a
 * wider width loses nothing: the result is the one computed from every entry at the end.
 */
import { LIMIT_VARIABLES, limitExceeded } from '../limits';

export const MAX_BUCKETS = 100;
const S = 1_000_000;
const WEEK = 7 * 86400 * S;
const NICE_WIDTHS = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400].map((s) => s * S);

export interface Cell {
  v: number;
  n: number;
}

export interface Series {
  op: string;
  /** bucket time (epoch µs) -> cell */
  cells: Map<number, Cell>;
}

export function combine(op: string, cell: Cell | undefined, add: Cell): Cell {
  if (!cell) return { v: add.v, n: add.n };
  if (op === 'min') cell.v = Math.min(cell.v, add.v);
  else if (op === 'max') cell.v = Math.max(cell.v, add.v);
  else cell.v += add.v;
  cell.n += add.n;
  return cell;
}

export function finalValue(op: string, cell: Cell | undefined): number {
  if (!cell) return 0;
  return ['count', 'sum', 'total', 'min', 'max'].includes(op) ? cell.v : cell.v / cell.n;
}

/** The width cells may use for a span seen so far: the nice width it calls for, at most a week. */
const widthFor = (span: number): number => NICE_WIDTHS.find((w) => span / w < MAX_BUCKETS) ?? WEEK;
/** The final bucket width: a nice width, or whole weeks for spans of 700 days and more. */
const finalWidth = (span: number): number => NICE_WIDTHS.find((w) => span / w < MAX_BUCKETS) ?? Math.ceil(span / (MAX_BUCKETS - 1) / WEEK) * WEEK;
/** The bucket width a span calls for (fewer than MAX_BUCKETS buckets): a chart's, and the default time window before a chart. */
export const rangeBucketWidth = finalWidth;

export class ChartCells {
  /** distinct timestamps while there are at most MAX_BUCKETS; then undefined (width mode) */
  private distinct: Set<number> | undefined = new Set();
  private width = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;
  private cellCount = 0;
  readonly series = new Map<string, Series>();

  constructor(
    private readonly module: string,
    private readonly limit: number,
  ) {}

  /** An entry's time (before add): it counts for the buckets even when the entry has no value. */
  see(ts: number): void {
    if (ts < this.min) this.min = ts;
    if (ts > this.max) this.max = ts;
    if (this.distinct) {
      this.distinct.add(ts);
      if (this.distinct.size <= MAX_BUCKETS) return;
      this.distinct = undefined;
    }
    const w = widthFor(this.max - this.min);
    if (w !== this.width) this.rekey(w);
  }

  private key(ts: number): number {
    return this.distinct ? ts : Math.floor(ts / this.width) * this.width;
  }

  add(name: string, op: string, ts: number, x: number): void {
    let s = this.series.get(name);
    if (!s) this.series.set(name, (s = { op, cells: new Map() }));
    const k = this.key(ts);
    const cell = s.cells.get(k);
    if (cell) {
      combine(op, cell, { v: x, n: 1 });
      return;
    }
    if (++this.cellCount > this.limit) throw limitExceeded(this.module, this.limit, 'cells (series x time buckets)', LIMIT_VARIABLES.renderRows);
    s.cells.set(k, { v: x, n: 1 });
  }

  private rekey(width: number): void {
    this.width = width;
    this.cellCount = 0;
    for (const s of this.series.values()) {
      const cells = new Map<number, Cell>();
      for (const [k, c] of s.cells) {
        const nk = Math.floor(k / width) * width;
        cells.set(nk, combine(s.op, cells.get(nk), c));
      }
      s.cells = cells;
      this.cellCount += cells.size;
    }
  }

  /** The buckets (ascending) and the series with their cells keyed by bucket. */
  finish(): { buckets: number[]; series: Map<string, Series> } {
    if (this.distinct) return { buckets: [...this.distinct].sort((a, b) => a - b), series: this.series };
    const w = finalWidth(this.max - this.min);
    if (w !== this.width) this.rekey(w);
    const buckets: number[] = [];
    for (let b = Math.floor(this.min / w) * w; b <= this.max; b += w) buckets.push(b);
    return { buckets, series: this.series };
  }
}
