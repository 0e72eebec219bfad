import { useEffect, useRef } from 'react';
import type { EChartsType } from './echarts';

export interface EChartProps {
  option: Record<string, unknown>;
  /** what the chart shows, for people who cannot see it */
  label: string;
  /** pixels, or a CSS length such as '100%' (a dashboard tile fills its box) */
  height?: number | string;
  /** drag to select a range on the x axis (category indexes) */
  onBrush?(from: number, to: number): void;
  /** a click on a point (or a slice): the texts it stands for (its series, its name, its value) and where the pointer was */
  onPoint?(texts: string[], at: { x: number; y: number }): void;
}

interface PointClick {
  seriesName?: string;
  name?: string;
  value?: unknown;
  event?: { event?: { clientX: number; clientY: number } };
}

type EChartsModule = typeof import('./echarts');
let loading: Promise<EChartsModule> | undefined;
const loadECharts = () => (loading ??= import('./echarts'));

/** One ECharts canvas; the library loads with the first chart. */
export function EChart({ option, label, height = 320, onBrush, onPoint }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const brush = useRef(onBrush);
  brush.current = onBrush;
  const point = useRef(onPoint);
  point.current = onPoint;

  useEffect(() => {
    let disposed = false;
    let ro: ResizeObserver | undefined;
    void loadECharts().then(({ init }) => {
      if (disposed || !host.current) return;
      const c = init(host.current, undefined, { renderer: 'canvas' });
      chart.current = c;
      c.on('brushEnd', (p: unknown) => {
        const range = (p as { areas?: Array<{ coordRange?: number[] }> }).areas?.[0]?.coordRange;
        c.dispatchAction({ type: 'brush', areas: [] });
        if (range && brush.current) brush.current(Math.min(range[0], range[1]), Math.max(range[0], range[1]));
      });
      c.on('click', (p: unknown) => {
        const { seriesName, name, value, event } = p as PointClick;
        const e = event?.event;
        if (!point.current || !e) return;
        const shown = (Array.isArray(value) ? value[value.length - 1] : value) as unknown;
        const texts = [seriesName, name, shown === null || shown === undefined ? undefined : String(shown)].filter((t): t is string => !!t);
        point.current(texts, { x: e.clientX, y: e.clientY });
      });
      ro = new ResizeObserver(() => c.resize());
      ro.observe(host.current);
      apply(c, option, !!brush.current);
    });
    return () => {
      disposed = true;
      ro?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the chart is created once; option changes are applied below
  }, []);

  useEffect(() => {
    if (chart.current) apply(chart.current, option, !!brush.current);
  }, [option]);

  return <div className="echart" ref={host} role="img" aria-label={label} style={{ height }} />;
}

function apply(c: EChartsType, option: Record<string, unknown>, brushable: boolean): void {
  c.setOption(option, { notMerge: true });
  if (brushable) c.dispatchAction({ type: 'takeGlobalCursor', key: 'brush', brushOption: { brushType: 'lineX', brushMode: 'single' } });
}
