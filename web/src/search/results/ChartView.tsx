import { useMemo, useState } from 'react';
import { ChartResult } from '../../api/types';
import { usePrefs } from '../../prefs/PrefsContext';
import { formatTime } from '../../ui/time-format';
import { CHART_TYPES, chartOption, ChartType, currentPalette, RendererOptions } from './chart-options';
import { EChart } from './EChart';

const TYPE_LABELS: Record<ChartType, string> = { line: 'Line', area: 'Area', bar: 'Bar', pie: 'Pie' };

/** The chart renderer: a chart of the chosen type, its settings, and the numbers as a table. */
export function ChartView({
  result,
  type,
  onType,
  options,
  onOptions,
}: {
  result: ChartResult;
  type: ChartType;
  onType(t: ChartType): void;
  options: RendererOptions;
  onOptions(o: RendererOptions): void;
}) {
  const { prefs } = usePrefs();
  const fmt = (ts: string) => formatTime(ts, prefs.timeZone).slice(0, 19);
  const option = useMemo(() => chartOption(result, type, options, currentPalette(), fmt), [result, type, options, prefs.timeZone, prefs.theme]); // eslint-disable-line react-hooks/exhaustive-deps -- the palette and time format follow the theme and zone
  const [showData, setShowData] = useState(false);
  const toggle = (key: keyof RendererOptions, on: string | undefined) => onOptions({ ...options, [key]: on });
  const summary = `${TYPE_LABELS[type]} chart of ${result.Names.join(', ') || 'no series'} over ${result.Values.length} time points`;

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
      {result.Values.length === 0 ? <p className="muted">No data to chart.</p> : <EChart option={option} label={summary} />}
      {showData && (
        <div className="table-scroll">
          <table aria-label="Chart data">
            <thead>
              <tr>
                <th scope="col">Time</th>
                {result.Names.map((n) => (
                  <th key={n} scope="col" className="num">
                    {n}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.Values.map((v) => (
                <tr key={v.TS}>
                  <td>{fmt(v.TS)}</td>
                  {v.Data.map((d, i) => (
                    <td key={i} className="num">
                      {d === null || d === undefined ? '' : String(d)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
