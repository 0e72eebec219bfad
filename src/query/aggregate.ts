/**
 * Mergeable accumulators for the math/stats operators, in columns: one operator's values for
 * every group of a table are a few number arrays (slot g = group g), so a million groups are not
 * a million objects, and the partial state of a column is those arrays.
 */
import { EVValue } from './types';
import { evToNumber, evToString } from './values';

export const STAT_OPS = ['count', 'sum', 'total', 'mean', 'stddev', 'variance', 'min', 'max', 'unique_count'] as const;
export type StatOp = (typeof STAT_OPS)[number];

export function isStatOp(s: string): s is StatOp {
  return (STAT_OPS as readonly string[]).includes(s);
}

/** The operators of the math modules: the stats operators and `entropy` (a module of its own in the product, not a stats operator). */
export type AccOp = StatOp | 'entropy';

/** JSON partial state of one column: only the arrays its operator needs (min/max: null = no value). */
export interface ColumnState {
  n?: number[];
  s?: number[];
  ss?: number[];
  min?: Array<number | null>;
  max?: Array<number | null>;
  u?: string[][];
  /** entropy: the 256 byte counts of each group ([] before its first value) */
  h?: number[][];
}

type Field = 'n' | 's' | 'ss' | 'min' | 'max' | 'u' | 'h';

const FIELDS: Record<AccOp, Field[]> = {
  count: ['n'],
  sum: ['s'],
  total: ['s'],
  mean: ['n', 's'],
  stddev: ['n', 's', 'ss'],
  variance: ['n', 's', 'ss'],
  min: ['min'],
  max: ['max'],
  unique_count: ['u'],
  entropy: ['h'],
};

/** Shannon entropy of byte counts, divided by 8 bits so that it lies between 0 and 1. */
export function byteEntropy(h: ArrayLike<number>): number | undefined {
  let n = 0;
  for (let i = 0; i < h.length; i++) n += h[i];
  if (n === 0) return undefined;
  let e = 0;
  for (let i = 0; i < h.length; i++) {
    if (h[i] > 0) {
      const p = h[i] / n;
      e -= p * Math.log2(p);
    }
  }
  return e / 8;
}

/** Called before a new distinct value enters a unique_count set (it may throw a LimitError). */
export type UniqueGuard = () => void;

/** One operator over every group of a table. */
export class AccColumn {
  private readonly n: number[] = [];
  private readonly s: number[] = [];
  private readonly ss: number[] = [];
  /** NaN = no value yet */
  private readonly min: number[] = [];
  private readonly max: number[] = [];
  private readonly u: Array<Set<string>> = [];
  private readonly h: number[][] = [];
  private readonly fields: Set<Field>;

  constructor(
    readonly op: AccOp,
    private readonly guardUnique: UniqueGuard = () => undefined,
  ) {
    this.fields = new Set(FIELDS[op]);
  }

  /** Adds the slot of a new group. */
  grow(): void {
    const f = this.fields;
    if (f.has('n')) this.n.push(0);
    if (f.has('s')) this.s.push(0);
    if (f.has('ss')) this.ss.push(0);
    if (f.has('min')) this.min.push(Number.NaN);
    if (f.has('max')) this.max.push(Number.NaN);
    if (f.has('u')) this.u.push(new Set());
    if (f.has('h')) this.h.push([]);
  }

  /** Adds one entry's value to group g. `hasOperand` is false for a bare `count`. */
  add(g: number, v: EVValue | undefined, hasOperand: boolean): void {
    if (this.op === 'count') {
      if (!hasOperand || v !== undefined) this.n[g]++;
      return;
    }
    if (v === undefined) return;
    if (this.op === 'unique_count') return this.addUnique(g, evToString(v));
    if (this.op === 'entropy') return this.addBytes(g, Buffer.isBuffer(v) ? v : Buffer.from(evToString(v), 'utf8'));
    const x = evToNumber(v);
    if (x !== null) this.addNumber(g, x);
  }

  private addUnique(g: number, v: string): void {
    const set = this.u[g];
    if (set.has(v)) return;
    this.guardUnique();
    set.add(v);
  }

  private addBytes(g: number, b: Buffer): void {
    const h = this.h[g].length ? this.h[g] : (this.h[g] = new Array<number>(256).fill(0));
    for (let i = 0; i < b.length; i++) h[b[i]]++;
  }

  private addNumber(g: number, x: number): void {
    const f = this.fields;
    if (f.has('n')) this.n[g]++;
    if (f.has('s')) this.s[g] += x;
    if (f.has('ss')) this.ss[g] += x * x;
    if (f.has('min') && !(this.min[g] <= x)) this.min[g] = x;
    if (f.has('max') && !(this.max[g] >= x)) this.max[g] = x;
  }

  /** Merges slot i of another table's column state into group g. */
  merge(g: number, st: ColumnState, i: number): void {
    if (st.n) this.n[g] += st.n[i];
    if (st.s) this.s[g] += st.s[i];
    if (st.ss) this.ss[g] += st.ss[i];
    const lo = st.min?.[i];
    if (lo !== undefined && lo !== null && !(this.min[g] <= lo)) this.min[g] = lo;
    const hi = st.max?.[i];
    if (hi !== undefined && hi !== null && !(this.max[g] >= hi)) this.max[g] = hi;
    if (st.u) for (const v of st.u[i]) this.addUnique(g, v);
    const h = st.h?.[i];
    if (h?.length) {
      const into = this.h[g].length ? this.h[g] : (this.h[g] = new Array<number>(256).fill(0));
      for (let k = 0; k < 256; k++) into[k] += h[k];
    }
  }

  /** JSON state (NaN becomes null in JSON). */
  state(): ColumnState {
    const st: ColumnState = {};
    const f = this.fields;
    if (f.has('n')) st.n = this.n;
    if (f.has('s')) st.s = this.s;
    if (f.has('ss')) st.ss = this.ss;
    if (f.has('min')) st.min = this.min;
    if (f.has('max')) st.max = this.max;
    if (f.has('u')) st.u = this.u.map((set) => [...set]);
    if (f.has('h')) st.h = this.h;
    return st;
  }

  /** Final value of group g, or undefined when it has none (mean of no numbers; count of nothing is 0). */
  result(g: number): number | undefined {
    switch (this.op) {
      case 'count':
        return this.n[g];
      case 'sum':
      case 'total':
        return this.s[g];
      case 'unique_count':
        return this.u[g].size;
      case 'entropy':
        return byteEntropy(this.h[g]);
      case 'min':
        return Number.isNaN(this.min[g]) ? undefined : this.min[g];
      case 'max':
        return Number.isNaN(this.max[g]) ? undefined : this.max[g];
      case 'mean':
        return this.n[g] ? this.s[g] / this.n[g] : undefined;
      default: {
        const n = this.n[g];
        if (!n) return undefined;
        const mean = this.s[g] / n;
        const variance = Math.max(0, this.ss[g] / n - mean * mean);
        return this.op === 'variance' ? variance : Math.sqrt(variance);
      }
    }
  }
}

/** The operator has a value over no entries at all (count, sum, total and unique_count: 0). */
export function hasValueForNothing(op: AccOp): boolean {
  const c = new AccColumn(op);
  c.grow();
  return c.result(0) !== undefined;
}
