/** Grouped aggregation shared by `stats` and the math modules (count, sum, mean, ...). */
import { AccColumn, AccOp, ColumnState, hasValueForNothing } from '../aggregate';
import { limitExceeded, trackedBound } from '../limits';
import { Entry, EVValue, RuntimeContext, SerializedEV } from '../types';
import { deserializeEV, evToNumber, evToString, formatTs, getEV, serializeEV, syntheticEntry } from '../values';
import { moduleWindow } from '../time-windows';
import { addWarning } from '../warnings';
import { Condenser, PartialAccumulator } from './module';

export interface StatSpecOp {
  op: AccOp;
  /** operand EV; undefined only for a bare `count` */
  ev?: string;
  /** output EV name */
  name: string;
}

/** The operand that is the entry's time: its operators work on epoch microseconds and give times. */
export const TIME_OPERAND = 'TIMESTAMP';
/** Operators a time operand allows (count, unique_count: the values; min, max, mean: times out). */
export const TIME_OPS: readonly AccOp[] = ['count', 'unique_count', 'min', 'max', 'mean'];

/** Entry time in µs as an operand: the entry's own TIMESTAMP EV when a module set one (RFC 3339 text), else its time. */
function timeOperand(e: Entry): number | undefined {
  const own = e.evs.get(TIME_OPERAND);
  if (own === undefined) return e.ts;
  const ms = Date.parse(evToString(own));
  return Number.isNaN(ms) ? undefined : ms * 1000;
}

/** Does the operator read the operand as a time (and give a time)? */
const readsTime = (o: StatSpecOp): boolean => o.ev === TIME_OPERAND && o.op !== 'count' && o.op !== 'unique_count';

export interface StatsSpec {
  /** module name, for error messages */
  module: string;
  ops: StatSpecOp[];
  by: string[];
  /** bucket width in microseconds (`over`), and as written */
  over?: number;
  overText?: string;
  /** `-maxtracked N`: groups (and unique_count values) each operation may track */
  maxTracked?: number;
}

/**
 * Partial state: one JSON string holding one array per field with one slot per group
 * (`by[c][g]`: grouping value c of group g; `cols[o]`: operator o's arrays). A string crosses a
 * worker boundary as one block and sits on the web server as one object, whatever the groups.
 */
interface StatsState {
  packed: string;
}

interface Unpacked {
  buckets?: number[];
  by: SerializedEV[][];
  ts: number[];
  cols: ColumnState[];
}

/** Groups in slots, laid out like the partial state. */
class GroupTable {
  private readonly slots = new Map<string, number>();
  private readonly buckets: number[] = [];
  private readonly by: EVValue[][];
  /** newest entry of each group */
  private readonly ts: number[] = [];
  private readonly cols: AccColumn[];
  /** per operator: reads the operand as a time */
  private readonly timed: boolean[];
  /** time bucket width (µs): `over`, or the time window when the results go to a chart; undefined: condensed */
  private readonly over: number | undefined;
  private readonly limit: number;

  constructor(
    private readonly spec: StatsSpec,
    rt: RuntimeContext,
  ) {
    this.limit = trackedBound(spec.maxTracked, rt.limits);
    this.by = spec.by.map(() => []);
    this.timed = spec.ops.map(readsTime);
    this.over = moduleWindow(spec.module, spec.over === undefined ? undefined : { us: spec.over, text: spec.overText ?? '' }, rt);
    this.cols = spec.ops.map((o) => {
      let values = 0;
      const guard = () => {
        if (++values > this.limit) throw limitExceeded(spec.module, this.limit, `distinct values in ${o.op}(${o.ev})`, '-maxtracked');
      };
      return new AccColumn(o.op, guard);
    });
  }

  get size(): number {
    return this.ts.length;
  }

  private slot(bucket: number | undefined, by: EVValue[], ts: number): number {
    // The common cases (one grouping value, or none, with or without a time bucket) skip JSON.stringify.
    const one = by.length ? evToString(by[0]) : '';
    const key = by.length > 1 ? JSON.stringify([bucket ?? null, ...by.map(evToString)]) : bucket === undefined ? one : `${bucket}\u0000${one}`;
    const found = this.slots.get(key);
    if (found !== undefined) {
      if (ts > this.ts[found]) this.ts[found] = ts;
      return found;
    }
    const g = this.ts.length;
    if (g >= this.limit) throw limitExceeded(this.spec.module, this.limit, 'distinct groups', '-maxtracked');
    this.slots.set(key, g);
    if (bucket !== undefined) this.buckets.push(bucket);
    for (let c = 0; c < by.length; c++) this.by[c].push(by[c]);
    this.ts.push(ts);
    for (const col of this.cols) col.grow();
    return g;
  }

  add(e: Entry, rt: RuntimeContext): void {
    const by: EVValue[] = [];
    for (const name of this.spec.by) {
      const v = getEV(e, name, rt);
      if (v === undefined) return; // entries without the grouping EVs are not counted
      by.push(v);
    }
    const ops = this.spec.ops;
    const operands = ops.map((o, k) => (o.ev === undefined ? undefined : this.timed[k] ? timeOperand(e) : getEV(e, o.ev, rt)));
    if (!ops.some((o, i) => o.ev === undefined || operands[i] !== undefined)) return;
    const bucket = this.over ? Math.floor(e.ts / this.over) * this.over : undefined;
    const g = this.slot(bucket, by, e.ts);
    for (let k = 0; k < ops.length; k++) this.cols[k].add(g, operands[k], ops[k].ev !== undefined);
  }

  addState(st: StatsState): void {
    const u = JSON.parse(st.packed) as Unpacked;
    const by: EVValue[] = []; // reused: slot() copies the values it keeps
    for (let i = 0; i < u.ts.length; i++) {
      for (let c = 0; c < u.by.length; c++) by[c] = deserializeEV(u.by[c][i]);
      const g = this.slot(u.buckets?.[i], by, u.ts[i]);
      for (let k = 0; k < this.cols.length; k++) this.cols[k].merge(g, u.cols[k], i);
    }
  }

  state(): StatsState {
    const u: Unpacked = { by: this.by.map((column) => column.map(serializeEV)), ts: this.ts, cols: this.cols.map((c) => c.state()) };
    if (this.over) u.buckets = this.buckets;
    return { packed: JSON.stringify(u) };
  }

  /** Group indexes ordered by time bucket (ascending, with `over`), then by the grouping values. */
  private order(): number[] {
    // Each column's numbers (NaN: not a number) and strings, computed once rather than per comparison.
    const nums = this.by.map((column) => Float64Array.from(column, (v) => evToNumber(v) ?? Number.NaN));
    const strs = this.by.map((column) => column.map(evToString));
    const order = Array.from({ length: this.size }, (_v, g) => g);
    const buckets = this.over ? this.buckets : undefined;
    return order.sort((a, b) => {
      if (buckets && buckets[a] !== buckets[b]) return buckets[a] - buckets[b];
      for (let c = 0; c < nums.length; c++) {
        const na = nums[c][a];
        const nb = nums[c][b];
        // Numerically when both are numbers; equal numbers written differently ("1", "1.0") by text.
        if (!Number.isNaN(na) && !Number.isNaN(nb) && na !== nb) return na - nb;
        const sa = strs[c][a];
        const sb = strs[c][b];
        if (sa !== sb) return sa < sb ? -1 : 1;
      }
      return 0;
    });
  }

  /**
   * Output entries, ordered (see order()). Without `by` and `over`, no entries still make one row
   * (at the end of the range), so `count` of nothing is 0 rather than no result. Every operator's
   * column is in every row: empty ("") where the group had no value for it, and a column no group
   * had a value for is a warning.
   */
  *finish(rt: RuntimeContext): Generator<Entry[]> {
    const ungrouped = this.spec.by.length === 0 && this.over === undefined;
    if (ungrouped && this.size === 0) this.slot(undefined, [], rt.rangeEnd);
    this.warnEmptyColumns(rt);
    const order = this.order();
    for (let i = 0; i < order.length; i += CHUNK) {
      const out: Entry[] = [];
      for (const g of order.slice(i, i + CHUNK)) out.push(this.entry(g));
      yield out;
    }
  }

  private warnEmptyColumns(rt: RuntimeContext): void {
    this.spec.ops.forEach((o, k) => {
      if (hasValueForNothing(o.op)) return;
      for (let g = 0; g < this.size; g++) if (this.cols[k].result(g) !== undefined) return;
      addWarning(rt, `${this.spec.module}: no entry had a value for ${o.op}(${o.ev ?? ''}); its column ${o.name} is empty`);
    });
  }

  private entry(g: number): Entry {
    const evs = new Map<string, EVValue>();
    for (let c = 0; c < this.spec.by.length; c++) evs.set(this.spec.by[c], this.by[c][g]);
    for (let k = 0; k < this.cols.length; k++) {
      const r = this.cols[k].result(g);
      evs.set(this.spec.ops[k].name, r === undefined ? '' : this.timed[k] ? formatTs(Math.round(r)) : r);
    }
    return syntheticEntry(this.over ? this.buckets[g] : this.ts[g], evs);
  }
}

/** Output entries made at a time when the merge streams its output (mergeChunks). */
const CHUNK = 10_000;

function all(chunks: Iterable<Entry[]>): Entry[] {
  const out: Entry[] = [];
  for (const c of chunks) for (const e of c) out.push(e);
  return out;
}

export function statsCondenser(spec: StatsSpec): Condenser {
  const merged = (states: unknown[], rt: RuntimeContext) => {
    const t = new GroupTable(spec, rt);
    for (const s of states) t.addState(s as StatsState);
    return t.finish(rt);
  };
  return {
    partial(rt): PartialAccumulator {
      const t = new GroupTable(spec, rt);
      return {
        push(entries) {
          for (const e of entries) t.add(e, rt);
        },
        state: () => t.state(),
      };
    },
    merge: (states, rt) => all(merged(states, rt)),
    mergeChunks: merged,
    local(entries, rt) {
      const t = new GroupTable(spec, rt);
      for (const e of entries) t.add(e, rt);
      return all(t.finish(rt));
    },
  };
}
