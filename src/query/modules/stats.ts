/**
 * `stats [-maxtracked N] op(X) [as name] ... [by A ...] [over <duration>]` and the math modules
 * `count [-maxtracked N] [X] [by A ...]`, `sum|mean|min|max|stddev|variance [-maxtracked N] X [by A ...]`
 * (all accept `over`). `stats op` without an operand reads DATA; `-b` and per-operation `by` lists are refused.
 */
import { ArgReader } from '../args';
import { AccOp, isStatOp } from '../aggregate';
import { Token } from '../lexer';
import { parseDuration } from '../time';
import { ModuleArgError } from '../types';
import { readCondenseFlags } from './condense-flags';
import { ModuleDef, ModuleInstance } from './module';
import { StatSpecOp, StatsSpec, statsCondenser, TIME_OPERAND, TIME_OPS } from './stats-engine';

/** Reads the trailing `[by A B ...] [over dur]` clauses (either order). */
function readByOver(r: ArgReader, spec: StatsSpec): void {
  while (!r.done) {
    if (r.accept('by')) {
      while (!r.done && r.peek()!.value !== 'over') {
        spec.by.push(r.value('EV name after "by"'));
        if (r.peek()?.kind === 'lparen') throw new ModuleArgError('a "by" list for each operation is not supported: write one "by" list after all operations');
      }
      if (spec.by.length === 0) throw new ModuleArgError('missing EV name after "by"');
    } else if (r.accept('over')) {
      const text = r.value('duration after "over"');
      const us = parseDuration(text);
      if (us === null || us <= 0) throw new ModuleArgError(`invalid duration "${text}"`);
      spec.over = us;
      spec.overText = text;
    } else {
      throw new ModuleArgError(`unexpected argument "${r.peek()!.value}"`);
    }
  }
}

function instance(spec: StatsSpec): ModuleInstance {
  const names = new Set<string>();
  for (const o of spec.ops) {
    if (o.ev === TIME_OPERAND && !TIME_OPS.includes(o.op)) {
      throw new ModuleArgError(`${o.op}(${o.ev}) is not supported: times can be counted (count, unique_count), compared (min, max) and averaged (mean)`);
    }
    if (names.has(o.name)) throw new ModuleArgError(`duplicate output name "${o.name}", use "as" to rename`);
    names.add(o.name);
  }
  const consumed = [...new Set([...spec.ops.flatMap((o) => (o.ev ? [o.ev] : [])), ...spec.by])];
  return {
    produced: spec.ops.map((o) => o.name),
    consumed,
    nonTemporal: spec.over === undefined,
    timeWindow: { over: spec.over },
    condenser: statsCondenser(spec),
    orderFree: true,
    groupBy: spec.by.length ? spec.by : undefined,
  };
}

function readStatsOp(r: ArgReader): StatSpecOp {
  const t = r.next()!;
  if (t.kind !== 'word' || !isStatOp(t.value)) throw new ModuleArgError(`"${t.value}" is not a stats operator`);
  const op: StatSpecOp = { op: t.value, name: t.value };
  if (r.peek()?.kind === 'lparen') {
    r.next();
    op.ev = r.value(`EV name in ${t.value}()`);
    if (r.next()?.kind !== 'rparen') throw new ModuleArgError(`missing ")" after ${t.value}(${op.ev}`);
  } else if (op.op !== 'count') {
    op.ev = 'DATA'; // as the product's page says: `stats sum` is `stats sum(DATA)`
  }
  if (r.accept('as')) op.name = r.value('name after "as"');
  return op;
}

export const statsModule: ModuleDef = {
  name: 'stats',
  info: 'Compute count, sum, total, mean, stddev, variance, min, max, unique_count, grouped by EVs and optionally over time buckets',
  examples: ['stats count', 'stats count sum(bytes) mean(bytes) as avg by src', 'stats unique_count(user) by host over 5m', 'stats -maxtracked 5000 count by user'],
  condensing: true,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const { maxTracked } = readCondenseFlags(r, { maxTracked: true, unsupported: { b: 'bool' } });
    const spec: StatsSpec = { module: 'stats', ops: [], by: [], maxTracked };
    while (!r.done && r.peek()!.value !== 'by' && r.peek()!.value !== 'over') spec.ops.push(readStatsOp(r));
    if (spec.ops.length === 0) throw new ModuleArgError('missing operator argument, e.g. stats count');
    readByOver(r, spec);
    return instance(spec);
  },
};

export function mathModule(op: AccOp, info: string, example: string | string[]): ModuleDef {
  return {
    name: op,
    info,
    examples: typeof example === 'string' ? [example] : example,
    condensing: true,
    build(args: Token[]): ModuleInstance {
      const r = new ArgReader(args);
      const { maxTracked } = readCondenseFlags(r, { maxTracked: true });
      const spec: StatsSpec = { module: op, ops: [{ op, name: op }], by: [], maxTracked };
      const first = r.peek();
      if (first && first.value !== 'by' && first.value !== 'over') spec.ops[0].ev = r.value('EV name');
      else if (op === 'entropy')
        spec.ops[0].ev = 'DATA'; // as the product's page says: `entropy` alone reads the data
      else if (op !== 'count') throw new ModuleArgError('missing EV argument');
      readByOver(r, spec);
      return instance(spec);
    },
  };
}

export const mathModules: ModuleDef[] = [
  mathModule('count', 'Count entries (or entries having EV X), optionally by EVs; -maxtracked N bounds the groups', 'count by src'),
  mathModule('sum', 'Sum of a numeric EV, optionally by EVs', 'sum bytes by user'),
  mathModule('mean', 'Mean of a numeric EV, optionally by EVs', 'mean latency by host'),
  mathModule('min', 'Minimum of a numeric EV, optionally by EVs', 'min latency'),
  mathModule('max', 'Maximum of a numeric EV, optionally by EVs', 'max latency by host'),
  mathModule('stddev', 'Population standard deviation of a numeric EV', 'stddev latency by host'),
  mathModule('variance', 'Population variance of a numeric EV', 'variance latency'),
];
