import { useMemo, useState } from 'react';
import { SearchInfo } from '../../api/types';
import { usePrefs } from '../../prefs/PrefsContext';
import { formatCount, formatTime } from '../../ui/time-format';
import { useCancellable } from '../../ui/useCancellable';
import { currentPalette } from './chart-options';
import { EChart } from './EChart';
import { HistogramData, loadHistogram } from './histogram-data';

/** Entries over time; dragging across it runs the search again over the selected range. */
export function Histogram({ info, renderers, onZoom }: { info: SearchInfo; renderers: ReadonlySet<string>; onZoom?(start: Date, end: Date): void }) {
  const { prefs } = usePrefs();
  const [data, setData] = useState<HistogramData | null>();
  // One histogram per search shown.
  useCancellable(
    (current) => {
      setData(undefined);
      return loadHistogram(info, renderers, () => !current());
    },
    { answer: (d) => setData(d ?? null), error: () => setData(null) },
    [info.ID],
  );

  const option = useMemo(() => {
    if (!data) return undefined;
    const p = currentPalette();
    return {
      animation: false,
      grid: { left: 8, right: 8, top: 8, bottom: 4, containLabel: true },
      tooltip: { renderMode: 'richText', trigger: 'axis' },
      brush: { xAxisIndex: 0, brushType: 'lineX', brushMode: 'single', transformable: false, throttleType: 'debounce' },
      xAxis: {
        type: 'category',
        data: data.buckets.map((b) => formatTime(new Date(b.start), prefs.timeZone).slice(0, 19)),
        axisLabel: { color: p.text },
        axisTick: { alignWithLabel: true },
      },
      yAxis: { type: 'value', minInterval: 1, splitNumber: 2, axisLabel: { color: p.text }, splitLine: { lineStyle: { color: p.grid } } },
      series: [{ type: 'bar', name: 'entries', data: data.buckets.map((b) => b.count), barCategoryGap: '10%' }],
    };
  }, [data, prefs.timeZone, prefs.theme]); // eslint-disable-line react-hooks/exhaustive-deps -- the palette is read from the page's CSS, which follows the theme

  if (data === null) return null;
  const total = data?.buckets.reduce((s, b) => s + b.count, 0) ?? 0;
  const zoom = (from: number, to: number) => {
    if (!data || !onZoom) return;
    const a = data.buckets[Math.max(0, Math.floor(from))];
    const b = data.buckets[Math.min(data.buckets.length - 1, Math.ceil(to))];
    if (a && b) onZoom(new Date(a.start), new Date(b.start + data.widthMs));
  };
  return (
    <section className="histogram" aria-label="Entries over time">
      {!data || !option ? (
        <p className="muted histogram-loading" role="status">
          Counting entries over time…
        </p>
      ) : (
        <>
          <EChart height={110} option={option} label={`Histogram of ${formatCount(total)} entries in ${data.buckets.length} intervals`} onBrush={onZoom ? zoom : undefined} />
          {onZoom && <p className="hint muted">Drag across the histogram to search that range.</p>}
        </>
      )}
    </section>
  );
}
