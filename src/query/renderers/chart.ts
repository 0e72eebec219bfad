/**
 * `chart [EV ...] [by X] [limit N]` (default EV: count). One series per EV (or per value of X),
 * one `Data` slot per series per time bucket. Entries with the same bucket and series are combined:
 * summed for count/sum/total, min/max for min/max, averaged otherwise. A missing `count` EV counts 1.
 * Buckets are the entries' distinct timestamps, or fixed "nice" widths when there are more than 100.
 */
import { ArgReader } from '../args';
import { pushAll } from '../arrays';
import { Token } from '../lexer';
import { Entry, ModuleArgError, RuntimeContext } from '../types';
import { evToNumber, evToString, formatTs, getEV } from '../values';
import { ChartResult, RendererDef, RendererInstance } from './renderer';

export const MAX_BUCKETS = 100;
const S = 1_000_000;
const NICE_WIDTHS = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400].map((s) => s * S);

interface ChartSpec {
  ops: string[];
  by?: string;
  limit?: number;
}

interface Cell {
  v: number;
  n: number;
}

function combine(op: string, cell: Cell | undefined, x: number): Cell {
  if (!cell) return { v: x, n: 1 };
  if (op === 'min') return { v: Math.min(cell.v, x), n: cell.n + 1 };
  if (op === 'max') return { v: Math.max(cell.v, x), n: cell.n + 1 };
  return { v: cell.v + x, n: cell.n + 1 };
}

function finalValue(op: string, cell: Cell | undefined): number {
  if (!cell) return 0;
  return ['count', 'sum', 'total', 'min', 'max'].includes(op) ? cell.v : cell.v / cell.n;
}

function bucketer(entries: Entry[]): { key: (ts: number) => number; buckets: number[] } {
  const distinct = [...new Set(entries.map((e) => e.ts))].sort((a, b) => a - b);
  if (distinct.length <= MAX_BUCKETS) return { key: (ts) => ts, buckets: distinct };
  const span = distinct[distinct.length - 1] - distinct[0];
  const width = NICE_WIDTHS.find((w) => span / w < MAX_BUCKETS) ?? Math.ceil(span / (MAX_BUCKETS - 1));
  const first = Math.floor(distinct[0] / width) * width;
  const buckets: number[] = [];
  for (let b = first; b <= distinct[distinct.length - 1]; b += width) buckets.push(b);
  return { key: (ts) => Math.floor(ts / width) * width, buckets };
}

export function buildChart(spec: ChartSpec, entries: Entry[], rt: RuntimeContext): ChartResult {
  const { key, buckets } = bucketer(entries);
  const cells = new Map<string, Map<number, Cell>>(); // series -> bucket -> cell
  const seriesOp = new Map<string, string>();
  for (const e of entries) {
    let group = '';
    if (spec.by !== undefined) {
      const g = getEV(e, spec.by, rt);
      if (g === undefined) continue;
      group = evToString(g);
    }
    for (const op of spec.ops) {
      const raw = getEV(e, op, rt);
      const x = raw === undefined && op === 'count' ? 1 : evToNumber(raw);
      if (x === null) continue;
      const name = spec.by === undefined ? op : spec.ops.length === 1 ? group : `${group} ${op}`;
      seriesOp.set(name, op);
      const series = cells.get(name) ?? new Map<number, Cell>();
      cells.set(name, series);
      const b = key(e.ts);
      series.set(b, combine(op, series.get(b), x));
    }
  }
  const total = (n: string) => [...cells.get(n)!.values()].reduce((s, c) => s + Math.abs(finalValue(seriesOp.get(n)!, c)), 0);
  let names = [...cells.keys()];
  if (spec.by === undefined) names = spec.ops.filter((o) => cells.has(o));
  else names.sort((a, b) => total(b) - total(a) || (a < b ? -1 : a > b ? 1 : 0));
  if (spec.limit !== undefined) names = names.slice(0, spec.limit);
  return {
    Names: names,
    Values: buckets.map((b) => ({ TS: formatTs(b), Data: names.map((n) => finalValue(seriesOp.get(n)!, cells.get(n)!.get(b))) })),
  };
}

function parseChartArgs(args: Token[]): ChartSpec {
  const r = new ArgReader(args);
  const spec: ChartSpec = { ops: [] };
  while (!r.done) {
    if (r.accept('by')) spec.by = r.value('EV name after "by"');
    else if (r.accept('limit')) {
      const n = r.value('number after "limit"');
      if (!/^\d+$/.test(n) || Number(n) === 0) throw new ModuleArgError(`invalid limit "${n}"`);
      spec.limit = Number(n);
    } else spec.ops.push(r.value('EV name'));
  }
  if (spec.ops.length === 0) spec.ops.push('count');
  return spec;
}

export const chartRenderer: RendererDef = {
  name: 'chart',
  description: 'Chart numeric EVs over time, optionally one series per value of an EV',
  examples: ['chart', 'stats count by user over 5m | chart count by user limit 10', 'stats min(x) max(x) mean(x) over 1m | chart min max mean'],
  formats: ['json', 'csv', 'archive'],
  condensing: true,
  build(args: Token[]): RendererInstance {
    const spec = parseChartArgs(args);
    return {
      consumed: [...spec.ops, ...(spec.by ? [spec.by] : [])],
      create(rt) {
        const kept: Entry[] = [];
        return {
          push: (entries) => pushAll(kept, entries),
          result: () => ({ kind: 'chart', EntryCount: kept.length, Entries: buildChart(spec, kept, rt) }),
        };
      },
    };
  },
};
