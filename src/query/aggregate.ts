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

/** JSON partial state of one column: only the arrays its operator needs (min/max: null = no value). */
export interface ColumnState {
  n?: number[];
  s?: number[];
  ss?: number[];
  min?: Array<number | null>;
  max?: Array<number | null>;
  u?: string[][];
}

type Field = 'n' | 's' | 'ss' | 'min' | 'max' | 'u';

const FIELDS: Record<StatOp, Field[]> = {
  count: ['n'],
  sum: ['s'],
  total: ['s'],
  mean: ['n', 's'],
  stddev: ['n', 's', 'ss'],
  variance: ['n', 's', 'ss'],
  min: ['min'],
  max: ['max'],
  unique_count: ['u'],
};

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
  private readonly fields: Set<Field>;

  constructor(
    readonly op: StatOp,
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
  }

  /** Adds one entry's value to group g. `hasOperand` is false for a bare `count`. */
  add(g: number, v: EVValue | undefined, hasOperand: boolean): void {
    if (this.op === 'count') {
      if (!hasOperand || v !== undefined) this.n[g]++;
      return;
    }
    if (v === undefined) return;
    if (this.op === 'unique_count') return this.addUnique(g, evToString(v));
    const x = evToNumber(v);
    if (x !== null) this.addNumber(g, x);
  }

  private addUnique(g: number, v: string): void {
    const set = this.u[g];
    if (set.has(v)) return;
    this.guardUnique();
    set.add(v);
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
export function hasValueForNothing(op: StatOp): boolean {
  const c = new AccColumn(op);
  c.grow();
  return c.result(0) !== undefined;
}
