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
}

type EChartsModule = typeof import('./echarts');
let loading: Promise<EChartsModule> | undefined;
const loadECharts = () => (loading ??= import('./echarts'));

/** One ECharts canvas; the library loads with the first chart. */
export function EChart({ option, label, height = 320, onBrush }: EChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const brush = useRef(onBrush);
  brush.current = onBrush;

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
