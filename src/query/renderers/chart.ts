/**
 * `chart [EV ...] [by X [Y ...]] [limit N]`. One series per EV (or per value of the keys, joined
 * with a space). A bare `chart` charts what the last condensing module made, by its keys
 * (`count by owner | chart` is `chart count by owner`; without such a module, `count`).
 * One `Data` slot per series per time bucket. Entries with the same bucket and series are combined:
 * summed for count/sum/total, min/max for min/max, averaged otherwise; `total` then runs on across
 * the buckets. A missing `count` EV counts 1. Buckets are the entries' distinct timestamps, or fixed
 * "nice" widths when there are more than 100.
 *
 * Before a chart, stats and the math modules run over time windows (time-windows.ts; the product's
 * temporal mode): every window of the search range is a bucket, a window without entries draws 0
 * for count/sum/total and no value (null) for the others. With keys, at most `limit` (default 24)
 * data sets per category, the rest summed up in an `other` group (chart.md).
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
import { Cell, ChartCells, combine, finalValue, Series } from './chart-cells';
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

/** Series at most per category (`limit`'s default): "the charting renderer will automatically limit ... to 24 values" (chart.md). */
export const DEFAULT_CHART_LIMIT = 24;
/** Operators whose value over nothing is 0: a window without entries draws 0, others draw no value (null). */
const ADDITIVE = new Set(['count', 'sum', 'total']);

function cellValue(op: string, cell: Cell | undefined): number | null {
  if (!cell) return ADDITIVE.has(op) ? 0 : null;
  return finalValue(op, cell);
}

function seriesTotal(s: Series): number {
  let t = 0;
  for (const c of s.cells.values()) t += Math.abs(finalValue(s.op, c));
  return t;
}

/**
 * The series drawn: biggest first. With keys, at most `limit` data sets per category (operator):
 * past it, limit - 1 keys and an `other` group made of the rest with the same math (chart.md,
 * "Chart Limiting and Grouping"), one per category: `other`, or `other <op>` with several.
 * Without keys, one series per value; over time windows even a value no entry had.
 */
function shownSeries(spec: ChartSpec, series: Map<string, Series>, windowed: boolean): Array<[string, Series]> {
  // Over time windows, a value without entries is still drawn (a count of nothing is a line at 0).
  if (!spec.by.length) return spec.ops.filter((o) => windowed || series.has(o)).map((o) => [o, series.get(o) ?? { op: o, cells: new Map() }]);
  const limit = spec.limit ?? DEFAULT_CHART_LIMIT;
  const total = new Map<Series, number>();
  for (const s of series.values()) total.set(s, seriesTotal(s));
  const byTotal = (a: [string, Series], b: [string, Series]) => total.get(b[1])! - total.get(a[1])! || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  const kept: Array<[string, Series]> = [];
  const others: Array<[string, Series]> = [];
  for (const op of spec.ops) {
    const mine = [...series].filter(([, s]) => s.op === op).sort(byTotal);
    if (mine.length <= limit) {
      kept.push(...mine);
      continue;
    }
    kept.push(...mine.slice(0, limit - 1));
    const other: Series = { op, cells: new Map() };
    for (const [, s] of mine.slice(limit - 1)) for (const [b, c] of s.cells) other.cells.set(b, combine(op, other.cells.get(b), c));
    others.push([spec.ops.length === 1 ? 'other' : `other ${op}`, other]);
  }
  return [...kept.sort(byTotal), ...others];
}

function chartResult(spec: ChartSpec, cells: ChartCells, rt: RuntimeContext, windowed: boolean): ChartResult {
  const { buckets, series } = cells.finish();
  const shown = shownSeries(spec, series, windowed);
  const limit = rt.limits.renderRows;
  if (shown.length * buckets.length > limit) throw limitExceeded('chart', limit, 'values (series x time buckets; use "limit")', LIMIT_VARIABLES.renderRows);
  const Values = buckets.map((b) => ({ TS: formatTs(b), Data: shown.map(([, s]) => cellValue(s.op, s.cells.get(b))) }));
  // `total` keeps a running total across the buckets (stats.md, "sum() vs total()").
  shown.forEach(([, s], i) => {
    if (s.op !== 'total') return;
    let run = 0;
    for (const v of Values) v.Data[i] = run += v.Data[i] ?? 0;
  });
  return { Names: shown.map(([n]) => n), Values };
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
  timeWindows: true,
  build(args: Token[]): RendererInstance {
    const given = parseChartArgs(args);
    return {
      consumed: [...given.ops, ...given.by],
      create(rt, opts) {
        // A bare chart (or one naming only `by`/`limit`) charts the last aggregate's values.
        const spec: ChartSpec = given.ops.length ? given : { ...given, ops: opts.values.length ? opts.values : ['count'], by: given.by.length ? given.by : opts.keys };
        const cells = new ChartCells('chart', rt.limits.renderRows);
        // Results of time windows: every window of the range is on the axis, those without entries too.
        const w = opts.windows;
        if (w) for (let t = Math.floor(w.start / w.width) * w.width; t < w.end; t += w.width) cells.see(t);
        let count = 0;
        return {
          push(entries) {
            count += entries.length;
            for (const e of entries) addEntry(spec, cells, e, rt);
          },
          result: () => ({ kind: 'chart', EntryCount: count, Entries: chartResult(spec, cells, rt, w !== undefined) }),
        };
      },
    };
  },
};
