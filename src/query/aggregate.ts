/** Mergeable accumulators for the math/stats operators. */
import { EVValue } from './types';
import { evToNumber, evToString } from './values';

export const STAT_OPS = ['count', 'sum', 'total', 'mean', 'stddev', 'variance', 'min', 'max', 'unique_count'] as const;
export type StatOp = (typeof STAT_OPS)[number];

export function isStatOp(s: string): s is StatOp {
  return (STAT_OPS as readonly string[]).includes(s);
}

/** JSON partial state of one accumulator. */
export interface AccState {
  n: number;
  s: number;
  ss: number;
  min: number | null;
  max: number | null;
  u?: string[];
}

export class Accumulator {
  private n = 0;
  private s = 0;
  private ss = 0;
  private min: number | null = null;
  private max: number | null = null;
  private readonly uniq?: Set<string>;

  constructor(readonly op: StatOp) {
    if (op === 'unique_count') this.uniq = new Set();
  }

  /** Adds one entry's value. `present` is false when the operand EV is missing. */
  add(v: EVValue | undefined, hasOperand: boolean): void {
    if (this.op === 'count') {
      if (!hasOperand || v !== undefined) this.n++;
      return;
    }
    if (v === undefined) return;
    if (this.uniq) {
      this.uniq.add(evToString(v));
      return;
    }
    const x = evToNumber(v);
    if (x === null) return;
    this.n++;
    this.s += x;
    this.ss += x * x;
    this.min = this.min === null ? x : Math.min(this.min, x);
    this.max = this.max === null ? x : Math.max(this.max, x);
  }

  state(): AccState {
    const st: AccState = { n: this.n, s: this.s, ss: this.ss, min: this.min, max: this.max };
    if (this.uniq) st.u = [...this.uniq];
    return st;
  }

  mergeState(st: AccState): void {
    this.n += st.n;
    this.s += st.s;
    this.ss += st.ss;
    if (st.min !== null) this.min = this.min === null ? st.min : Math.min(this.min, st.min);
    if (st.max !== null) this.max = this.max === null ? st.max : Math.max(this.max, st.max);
    if (this.uniq && st.u) for (const v of st.u) this.uniq.add(v);
  }

  /** Final value, or undefined when it has none (e.g. mean of no numbers; count of nothing is 0). */
  result(): number | undefined {
    switch (this.op) {
      case 'count':
        return this.n;
      case 'sum':
      case 'total':
        return this.s;
      case 'unique_count':
        return this.uniq!.size;
      case 'min':
        return this.min ?? undefined;
      case 'max':
        return this.max ?? undefined;
      case 'mean':
        return this.n ? this.s / this.n : undefined;
      default: {
        if (!this.n) return undefined;
        const mean = this.s / this.n;
        const variance = Math.max(0, this.ss / this.n - mean * mean);
        return this.op === 'variance' ? variance : Math.sqrt(variance);
      }
    }
  }
}

/** The operator has a value over no entries at all (count, sum, total and unique_count: 0). */
export const hasValueForNothing = (op: StatOp): boolean => new Accumulator(op).result() !== undefined;
