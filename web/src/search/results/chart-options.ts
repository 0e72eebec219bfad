/**
 * ECharts options for the chart renderer's result (product-notes §2.6) as the chart type and the
 * contract's `rendererOptions` say (service-api.md, Dashboard). Pure: tested in chart-options.spec.ts.
 */
import { ChartResult } from '../../api/types';

export type ChartType = 'line' | 'area' | 'bar' | 'pie';
export const CHART_TYPES: ChartType[] = ['line', 'area', 'bar', 'pie'];

/** The contract's keys; absent means the default. LogScale 'yes' is our addition (log y axis). */
export interface RendererOptions {
  XAxisSplitLine?: 'no';
  YAxisSplitLine?: 'no';
  Precision?: 'no';
  LogScale?: 'no' | 'yes';
  Labels?: 'no';
  Background?: 'no';
  IncludeOther?: 'yes';
  Rotate?: 'yes';
  Stack?: 'grouped' | 'stacked';
  Smoothing?: 'normal' | 'smooth';
  Orientation?: 'v' | 'h';
  ConnectNulls?: 'no' | 'yes';
  values?: { Smoothing?: 'smooth'; Orientation?: 'h'; columns?: string[] };
}

export interface Palette {
  text: string;
  grid: string;
  background: string;
}

const PIE_SLICES = 12;

const round = (v: number, precise: boolean) => (precise ? v : Math.round(v * 100) / 100);

export function chartOption(result: ChartResult, type: ChartType, o: RendererOptions, palette: Palette, fmt: (ts: string) => string = shortTime): Record<string, unknown> {
  const precise = o.Precision === 'no';
  const smooth = o.Smoothing === 'smooth' || o.values?.Smoothing === 'smooth';
  const horizontal = type === 'bar' && (o.Orientation === 'h' || o.values?.Orientation === 'h');
  const base = {
    animation: false,
    backgroundColor: o.Background === 'no' ? 'transparent' : palette.background,
    textStyle: { color: palette.text },
    legend: { show: o.Labels !== 'no' && result.Names.length > 1, type: 'plain', top: 0, textStyle: { color: palette.text } },
    tooltip: { renderMode: 'richText', trigger: type === 'pie' ? 'item' : 'axis' },
  };
  if (type === 'pie') {
    const totals = result.Names.map((name, i) => ({
      name,
      value: round(
        result.Values.reduce((s, v) => s + (v.Data[i] ?? 0), 0),
        precise,
      ),
    })).sort((a, b) => b.value - a.value);
    let data = totals;
    if (totals.length > PIE_SLICES) {
      data = totals.slice(0, PIE_SLICES - 1);
      if (o.IncludeOther === 'yes')
        data.push({
          name: 'other',
          value: round(
            totals.slice(PIE_SLICES - 1).reduce((s, t) => s + t.value, 0),
            precise,
          ),
        });
    }
    return {
      ...base,
      legend: { ...base.legend, show: o.Labels !== 'no' },
      series: [{ type: 'pie', radius: ['30%', '70%'], data, label: { show: o.Labels !== 'no', color: palette.text } }],
    };
  }
  const times = result.Values.map((v) => v.TS);
  const valueAxis = {
    type: o.LogScale === 'yes' ? 'log' : 'value',
    splitLine: { show: o.YAxisSplitLine !== 'no', lineStyle: { color: palette.grid } },
    axisLabel: { color: palette.text },
  };
  const timeAxis = {
    type: 'category',
    data: times.map(fmt),
    splitLine: { show: o.XAxisSplitLine !== 'no', lineStyle: { color: palette.grid } },
    axisLabel: { color: palette.text, rotate: o.Rotate === 'yes' ? 45 : 0 },
  };
  const connect = o.ConnectNulls === 'yes';
  const series = result.Names.map((name, i) => ({
    name,
    type: type === 'area' ? 'line' : type,
    ...points(
      result.Values.map((v) => {
        const x = v.Data[i];
        return x === null || x === undefined || Number.isNaN(x) ? null : round(x, precise);
      }),
      type !== 'bar' && !connect,
    ),
    smooth,
    connectNulls: connect,
    ...(type === 'area' ? { areaStyle: { opacity: 0.35 } } : {}),
    ...(o.Stack === 'stacked' ? { stack: 'total' } : {}),
  }));
  return {
    ...base,
    grid: { left: 8, right: 16, top: base.legend.show ? 36 : 16, bottom: 8, containLabel: true },
    xAxis: horizontal ? valueAxis : timeAxis,
    yAxis: horizontal ? timeAxis : valueAxis,
    series,
  };
}

/** A line shows each point when there are few; past SYMBOLS_UNDER points, the line alone. */
const SYMBOLS_UNDER = 60;

/** Has a value, and no value on either side (an empty window, or the end). */
const alone = (values: Array<number | null>, k: number) => values[k] !== null && (k === 0 || values[k - 1] === null) && (k === values.length - 1 || values[k + 1] === null);

/**
 * A series' points and its symbols. An empty time window (`null`) is a gap in the line. A value
 * between two gaps has no line to show it, so where the line is drawn without symbols (`gaps`:
 * a line or area that does not connect them) it gets a symbol of its own.
 */
function points(values: Array<number | null>, gaps: boolean): Record<string, unknown> {
  if (values.length < SYMBOLS_UNDER) return { data: values, showSymbol: true };
  const lone = gaps ? values.map((_, k) => alone(values, k)) : [];
  if (!lone.some(Boolean)) return { data: values, showSymbol: false };
  return { data: values.map((x, k) => (lone[k] ? { value: x, symbol: 'circle' } : x)), showSymbol: true, showAllSymbol: true, symbol: 'none' };
}

/** "2024-05-01T10:05:00Z" -> "2024-05-01 10:05:00" (as sent). */
export function shortTime(ts: string): string {
  return ts.replace('T', ' ').replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '');
}

/** Colours of the current theme, read from the page's CSS variables. */
export function currentPalette(): Palette {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { text: v('--fg', '#222'), grid: v('--border', '#ddd'), background: v('--surface', '#fff') };
}
