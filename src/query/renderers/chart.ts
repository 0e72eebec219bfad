/**
 * `chart [EV ...] [by X [Y ...]] [limit N]`. One series per EV (or per value of the keys, joined
 * with a space), A bare `chart` charts what the last condensing module made, by its keys
 * (`count by owner | chart` is `chart count by owner`; without such a module, `count`).
 * one `Data` slot per series per time bucket. Entries with the same bucket and series are combined:
 * summed for count/sum/total, min/max for min/max, averaged otherwise. A missing `count` EV counts 1.
 * Buckets are the entries' distinct timestamps, or fixed "nice" widths when there are more than 100.
 *
 * Nothing is kept per entry: cells are combined as entries arrive (chart-cells.ts), so a streamed
 * chart of any size holds about 100 cells per series. Series cells and output values past
 * SEARCH_RENDER_MAX_ROWS end the search.
 */
import { ArgReader } from '../args';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Token } from '../lexer';
import { Entry, ModuleArgError, RuntimeContext } from '../types';
import { evToNumber, evToString, formatTs, getEV } from '../values';
import { ChartCells, finalValue } from './chart-cells';
import { ChartResult, RendererDef, RendererInstance } from './renderer';

export { MAX_BUCKETS } from './chart-cells';

interface ChartSpec {
  ops: string[];
  /** key EVs; empty: one series per EV */
  by: string[];
  limit?: number;
}

/** Adds one entry to the cells (its time counts for the buckets even when it has no value). */
function addEntry(spec: ChartSpec, cells: ChartCells, e: Entry, rt: RuntimeContext): void {
  cells.see(e.ts);
  let group = '';
  for (const k of spec.by) {
    const g = getEV(e, k, rt);
    if (g === undefined) return;
    group = group ? `${group} ${evToString(g)}` : evToString(g);
  }
  for (const op of spec.ops) {
    const raw = getEV(e, op, rt);
    const x = raw === undefined && op === 'count' ? 1 : evToNumber(raw);
    if (x === null) continue;
    const name = !spec.by.length ? op : spec.ops.length === 1 ? group : `${group} ${op}`;
    cells.add(name, op, e.ts, x);
  }
}

function chartResult(spec: ChartSpec, cells: ChartCells, rt: RuntimeContext): ChartResult {
  const { buckets, series } = cells.finish();
  let names = [...series.keys()];
  if (!spec.by.length) names = spec.ops.filter((o) => series.has(o));
  else {
    const total = new Map<string, number>();
    for (const [n, s] of series) {
      let t = 0;
      for (const c of s.cells.values()) t += Math.abs(finalValue(s.op, c));
      total.set(n, t);
    }
    names.sort((a, b) => total.get(b)! - total.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
  }
  if (spec.limit !== undefined) names = names.slice(0, spec.limit);
  const limit = rt.limits.renderRows;
  if (names.length * buckets.length > limit) throw limitExceeded('chart', limit, 'values (series x time buckets; use "limit")', LIMIT_VARIABLES.renderRows);
  const shown = names.map((n) => series.get(n)!);
  return {
    Names: names,
    Values: buckets.map((b) => ({ TS: formatTs(b), Data: shown.map((s) => finalValue(s.op, s.cells.get(b))) })),
  };
}

function parseChartArgs(args: Token[]): ChartSpec {
  const r = new ArgReader(args);
  const spec: ChartSpec = { ops: [], by: [] };
  while (!r.done) {
    if (r.accept('by')) {
      spec.by.push(r.value('EV name after "by"'));
      while (!r.done && r.peek()?.value !== 'limit') spec.by.push(r.value('EV name after "by"'));
    } else if (r.accept('limit')) {
      const n = r.value('number after "limit"');
      if (!/^\d+$/.test(n) || Number(n) === 0) throw new ModuleArgError(`invalid limit "${n}"`);
      spec.limit = Number(n);
    } else spec.ops.push(r.value('EV name'));
  }
  return spec;
}

export const chartRenderer: RendererDef = {
  name: 'chart',
  description: 'Chart numeric EVs over time, optionally one series per value of an EV',
  examples: ['chart', 'stats count by user over 5m | chart count by user limit 10', 'stats min(x) max(x) mean(x) over 1m | chart min max mean'],
  formats: ['json', 'csv', 'archive'],
  kind: 'chart',
  build(args: Token[]): RendererInstance {
    const given = parseChartArgs(args);
    return {
      consumed: [...given.ops, ...given.by],
      create(rt, opts) {
        // A bare chart (or one naming only `by`/`limit`) charts the last aggregate's values.
        const spec: ChartSpec = given.ops.length ? given : { ...given, ops: opts.values.length ? opts.values : ['count'], by: given.by.length ? given.by : opts.keys };
        const cells = new ChartCells('chart', rt.limits.renderRows);
        let count = 0;
        return {
          push(entries) {
            count += entries.length;
            for (const e of entries) addEntry(spec, cells, e, rt);
          },
          result: () => ({ kind: 'chart', EntryCount: count, Entries: chartResult(spec, cells, rt) }),
        };
      },
    };
  },
};
