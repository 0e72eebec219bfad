/** Grouped aggregation shared by `stats` and the math modules (count, sum, mean, ...). */
import { Accumulator, AccState, StatOp } from '../aggregate';
import { Entry, EVValue, RuntimeContext, SerializedEV } from '../types';
import { compareValues, deserializeEV, evToString, getEV, serializeEV, syntheticEntry } from '../values';
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

interface Group {
  bucket: number | null;
  by: EVValue[];
  ts: number;
  accs: Accumulator[];
}

interface GroupState {
  bucket: number | null;
  by: SerializedEV[];
  ts: number;
  accs: AccState[];
}

interface StatsState {
  groups: GroupState[];
}

class GroupTable {
  readonly groups = new Map<string, Group>();
  constructor(private readonly spec: StatsSpec) {}

  private group(bucket: number | null, by: EVValue[], ts: number): Group {
    // The common cases (one grouping value, or none, and no time bucket) skip JSON.stringify.
    const key = bucket === null && by.length <= 1 ? (by.length ? `s${evToString(by[0])}` : '') : JSON.stringify([bucket, ...by.map(evToString)]);
    let g = this.groups.get(key);
    if (!g) {
      g = { bucket, by, ts, accs: this.spec.ops.map((o) => new Accumulator(o.op)) };
      this.groups.set(key, g);
    }
    g.ts = Math.max(g.ts, ts);
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
    const g = this.group(bucket, by, e.ts);
    this.spec.ops.forEach((o, i) => g.accs[i].add(operands[i], o.ev !== undefined));
  }

  addState(st: StatsState): void {
    for (const gs of st.groups) {
      const g = this.group(gs.bucket, gs.by.map(deserializeEV), gs.ts);
      gs.accs.forEach((a, i) => g.accs[i].mergeState(a));
    }
  }

  state(): StatsState {
    return {
      groups: [...this.groups.values()].map((g) => ({
        bucket: g.bucket,
        by: g.by.map(serializeEV),
        ts: g.ts,
        accs: g.accs.map((a) => a.state()),
      })),
    };
  }

  /** Output entries: ordered by time bucket (ascending, with `over`), then by the grouping values. */
  finish(): Entry[] {
    const groups = [...this.groups.values()].sort((a, b) => {
      if (a.bucket !== null && b.bucket !== null && a.bucket !== b.bucket) return a.bucket - b.bucket;
      for (let i = 0; i < a.by.length; i++) {
        const c = compareValues(a.by[i], b.by[i]);
        if (c !== 0) return c;
      }
      return 0;
    });
    return groups.map((g) => {
      const evs = new Map<string, EVValue>();
      this.spec.by.forEach((name, i) => evs.set(name, g.by[i]));
      this.spec.ops.forEach((o, i) => {
        const r = g.accs[i].result();
        if (r !== undefined) evs.set(o.name, r);
      });
      return syntheticEntry(g.bucket ?? g.ts, evs);
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
    merge(states) {
      const t = new GroupTable(spec);
      for (const s of states) t.addState(s as StatsState);
      return t.finish();
    },
    local(entries, rt) {
      const t = new GroupTable(spec);
      entries.forEach((e) => t.add(e, rt));
      return t.finish();
    },
  };
}
