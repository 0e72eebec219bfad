/** Grouped aggregation shared by `stats` and the math modules (count, sum, mean, ...). */
import { Accumulator, AccState, hasValueForNothing, StatOp } from '../aggregate';
import { Entry, EVValue, RuntimeContext, SerializedEV } from '../types';
import { compareSortKeys, deserializeEV, evToString, getEV, serializeEV, sortKey, syntheticEntry } from '../values';
import { Condenser, PartialAccumulator } from './module';

export interface StatSpecOp {
  op: StatOp;
  /** operand EV; undefined only for a bare `count` */
  ev?: string;
  /** output EV name */
  name: string;
}

export interface StatsSpec {
  ops: StatSpecOp[];
  by: string[];
  /** bucket width in microseconds (`over`) */
  over?: number;
}

/**
 * JSON partial state, one array per field with one slot per group (`by[c][g]`: grouping value c of
 * group g; `accs[o][g]`: operator o of group g), so a million groups are not a million objects.
 */
interface StatsState {
  buckets: Array<number | null>;
  by: SerializedEV[][];
  ts: number[];
  accs: AccState[][];
}

/** Groups in slots, laid out like StatsState. */
class GroupTable {
  private readonly slots = new Map<string, number>();
  private readonly buckets: Array<number | null> = [];
  private readonly by: EVValue[][];
  /** newest entry of each group */
  private readonly ts: number[] = [];
  private readonly accs: Accumulator[][];

  constructor(private readonly spec: StatsSpec) {
    this.by = spec.by.map(() => []);
    this.accs = spec.ops.map(() => []);
  }

  private slot(bucket: number | null, by: EVValue[], ts: number): number {
    // The common cases (one grouping value, or none, and no time bucket: the same for every group) skip JSON.stringify.
    const key = bucket === null && by.length <= 1 ? (by.length ? evToString(by[0]) : '') : JSON.stringify([bucket, ...by.map(evToString)]);
    const found = this.slots.get(key);
    if (found !== undefined) {
      if (ts > this.ts[found]) this.ts[found] = ts;
      return found;
    }
    const g = this.ts.length;
    this.slots.set(key, g);
    this.buckets.push(bucket);
    by.forEach((v, c) => this.by[c].push(v));
    this.ts.push(ts);
    this.spec.ops.forEach((o, k) => this.accs[k].push(new Accumulator(o.op)));
    return g;
  }

  add(e: Entry, rt: RuntimeContext): void {
    const by: EVValue[] = [];
    for (const name of this.spec.by) {
      const v = getEV(e, name, rt);
      if (v === undefined) return; // entries without the grouping EVs are not counted
      by.push(v);
    }
    const operands = this.spec.ops.map((o) => (o.ev === undefined ? undefined : getEV(e, o.ev, rt)));
    if (!this.spec.ops.some((o, i) => o.ev === undefined || operands[i] !== undefined)) return;
    const bucket = this.spec.over ? Math.floor(e.ts / this.spec.over) * this.spec.over : null;
    const g = this.slot(bucket, by, e.ts);
    this.spec.ops.forEach((o, k) => this.accs[k][g].add(operands[k], o.ev !== undefined));
  }

  addState(st: StatsState): void {
    for (let i = 0; i < st.ts.length; i++) {
      const g = this.slot(st.buckets[i], st.by.map((column) => deserializeEV(column[i])), st.ts[i]);
      this.accs.forEach((column, k) => column[g].mergeState(st.accs[k][i]));
    }
  }

  state(): StatsState {
    return {
      buckets: this.buckets,
      by: this.by.map((column) => column.map(serializeEV)),
      ts: this.ts,
      accs: this.accs.map((column) => column.map((a) => a.state())),
    };
  }

  /**
   * Output entries: ordered by time bucket (ascending, with `over`), then by the grouping values.
   * Without `by` and `over`, no entries still make one row (at the end of the range) when an
   * operator has a value for nothing, so `count` of nothing is 0 rather than no result.
   */
  finish(rt: RuntimeContext): Entry[] {
    const ungrouped = this.spec.by.length === 0 && this.spec.over === undefined;
    if (ungrouped && this.ts.length === 0 && this.spec.ops.some((o) => hasValueForNothing(o.op))) this.slot(null, [], rt.rangeEnd);
    const keys = this.by.map((column) => column.map(sortKey));
    const order = this.ts.map((_ts, g) => g);
    order.sort((a, b) => {
      const ba = this.buckets[a];
      const bb = this.buckets[b];
      if (ba !== null && bb !== null && ba !== bb) return ba - bb;
      for (const column of keys) {
        const c = compareSortKeys(column[a], column[b]);
        if (c !== 0) return c;
      }
      return 0;
    });
    return order.map((g) => {
      const evs = new Map<string, EVValue>();
      this.spec.by.forEach((name, c) => evs.set(name, this.by[c][g]));
      this.spec.ops.forEach((o, k) => {
        const r = this.accs[k][g].result();
        if (r !== undefined) evs.set(o.name, r);
      });
      return syntheticEntry(this.buckets[g] ?? this.ts[g], evs);
    });
  }
}

export function statsCondenser(spec: StatsSpec): Condenser {
  return {
    partial(rt): PartialAccumulator {
      const t = new GroupTable(spec);
      return {
        push: (entries) => entries.forEach((e) => t.add(e, rt)),
        state: () => t.state(),
      };
    },
    merge(states, rt) {
      const t = new GroupTable(spec);
      for (const s of states) t.addState(s as StatsState);
      return t.finish(rt);
    },
    local(entries, rt) {
      const t = new GroupTable(spec);
      entries.forEach((e) => t.add(e, rt));
      return t.finish(rt);
    },
  };
}
