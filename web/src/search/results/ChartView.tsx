import { useContext, useMemo, useState } from 'react';
import { Matched, openValueMenu, SourceRangeContext, useValueActions } from '../../actionables/ValueActions';
import { ChartResult } from '../../api/types';
import { usePrefs } from '../../prefs/PrefsContext';
import { formatTime } from '../../ui/time-format';
import { CHART_TYPES, chartOption, ChartType, currentPalette, RendererOptions } from './chart-options';
import { EChart } from './EChart';

const TYPE_LABELS: Record<ChartType, string> = { line: 'Line', area: 'Area', bar: 'Bar', pie: 'Pie' };

/** The time span [start, end) of the chart's points from..to (category indexes), for zooming. */
export function pointsRange(values: ChartResult['Values'], from: number, to: number): { start: Date; end: Date } | undefined {
  const t = (i: number) => Date.parse(values[Math.min(values.length - 1, Math.max(0, i))]?.TS ?? '');
  const a = t(Math.floor(from));
  const last = Math.ceil(to);
  const step = values.length > 1 ? t(1) - t(0) : 0;
  const b = last + 1 < values.length ? t(last + 1) : t(last) + Math.max(step, 1000);
  return Number.isFinite(a) && Number.isFinite(b) && a < b ? { start: new Date(a), end: new Date(b) } : undefined;
}

/** What the chart shows, in words: its series, its time points, and how many of them have no value (gaps). */
export function chartSummary(result: ChartResult, type: string): string {
  const empty = result.Values.filter((v) => v.Data.every((d) => d === null || d === undefined)).length;
  return `${type} chart of ${result.Names.join(', ') || 'no series'} over ${result.Values.length} time points${empty ? `, ${empty} without a value` : ''}`;
}

/**
 * The chart renderer: a chart of the chosen type, its settings, and the numbers as a table.
 * `compact` (a dashboard tile): the chart alone, filling its box. `onZoom`: dragging across the
 * chart selects a time range.
 */
export function ChartView({
  result,
  type,
  onType,
  options,
  onOptions,
  compact,
  onZoom,
}: {
  result: ChartResult;
  type: ChartType;
  onType(t: ChartType): void;
  options: RendererOptions;
  onOptions(o: RendererOptions): void;
  compact?: boolean;
  onZoom?(start: Date, end: Date): void;
}) {
  const { prefs } = usePrefs();
  const actions = useValueActions();
  const range = useContext(SourceRangeContext);
  // A click on a point offers the actionables of its series (a `by` value), else of its value.
  const onPoint = actions?.compiled.length ? (texts: string[], at: { x: number; y: number }) => void openValueMenu(actions, texts, at, range) : undefined;
  const fmt = (ts: string) => formatTime(ts, prefs.timeZone).slice(0, 19);
  const option = useMemo(() => chartOption(result, type, options, currentPalette(), fmt), [result, type, options, prefs.timeZone, prefs.theme]); // eslint-disable-line react-hooks/exhaustive-deps -- the palette and time format follow the theme and zone
  const [showData, setShowData] = useState(false);
  const toggle = (key: keyof RendererOptions, on: string | undefined) => onOptions({ ...options, [key]: on });
  const summary = chartSummary(result, TYPE_LABELS[type]);
  const horizontal = type === 'bar' && (options.Orientation === 'h' || options.values?.Orientation === 'h');
  const brush =
    onZoom && type !== 'pie' && !horizontal && result.Values.length > 1
      ? (from: number, to: number) => {
          const r = pointsRange(result.Values, from, to);
          if (r) onZoom(r.start, r.end);
        }
      : undefined;
  const brushable = !!brush;
  // Zooming selects along the time axis, as on the histogram.
  const shown = useMemo(
    () => (brushable ? { ...option, brush: { xAxisIndex: 0, brushType: 'lineX', brushMode: 'single', transformable: false, throttleType: 'debounce' } } : option),
    [option, brushable],
  );

  if (compact)
    return result.Values.length === 0 ? <p className="muted">No data to chart.</p> : <EChart option={shown} label={summary} height="100%" onBrush={brush} onPoint={onPoint} />;

  return (
    <section className="chart-view" aria-label="Chart">
      <div className="toolbar" role="toolbar" aria-label="Chart settings">
        <label>
          Chart type
          <select value={type} onChange={(e) => onType(e.target.value as ChartType)}>
            {CHART_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </label>
        {type !== 'pie' && (
          <>
            <label>
              <input type="checkbox" checked={options.Stack === 'stacked'} onChange={(e) => toggle('Stack', e.target.checked ? 'stacked' : undefined)} /> Stacked
            </label>
            {type !== 'bar' && (
              <label>
                <input type="checkbox" checked={options.Smoothing === 'smooth'} onChange={(e) => toggle('Smoothing', e.target.checked ? 'smooth' : undefined)} /> Smooth
              </label>
            )}
            {type === 'bar' && (
              <label>
                <input type="checkbox" checked={options.Orientation === 'h'} onChange={(e) => toggle('Orientation', e.target.checked ? 'h' : undefined)} /> Horizontal
              </label>
            )}
            <label>
              <input type="checkbox" checked={options.LogScale === 'yes'} onChange={(e) => toggle('LogScale', e.target.checked ? 'yes' : undefined)} /> Log scale
            </label>
            <label>
              <input type="checkbox" checked={options.ConnectNulls === 'yes'} onChange={(e) => toggle('ConnectNulls', e.target.checked ? 'yes' : undefined)} /> Connect gaps
            </label>
          </>
        )}
        <button type="button" aria-expanded={showData} onClick={() => setShowData(!showData)}>
          {showData ? 'Hide data' : 'Show data'}
        </button>
      </div>
      {result.Values.length === 0 ? <p className="muted">No data to chart.</p> : <EChart option={shown} label={summary} onBrush={brush} onPoint={onPoint} />}
      {showData && (
        <div className="table-scroll">
          <table aria-label="Chart data">
            <thead>
              <tr>
                <th scope="col">Time</th>
                {result.Names.map((n) => (
                  <th key={n} scope="col" className="num">
                    <Matched text={n} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.Values.map((v) => (
                <tr key={v.TS}>
                  <td>{fmt(v.TS)}</td>
                  {v.Data.map((d, i) =>
                    d === null || d === undefined ? (
                      <td key={i} className="num muted" title="No value: no entries in this time window">
                        —
                      </td>
                    ) : (
                      <td key={i} className="num">
                        <Matched text={String(d)} />
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
