import { chartOption } from './chart-options';

const result = {
  Names: ['a', 'b'],
  Values: [
    { TS: '2024-01-01T00:00:00Z', Data: [1, 2.345] },
    { TS: '2024-01-01T00:05:00Z', Data: [3, 4] },
  ],
};
const palette = { text: '#000', grid: '#ccc', background: '#fff' };
type Series = Array<Record<string, unknown>>;

describe('chartOption', () => {
  it('draws one line per series over the time buckets', () => {
    const o = chartOption(result, 'line', {}, palette) as { series: Series; xAxis: { data: string[] }; yAxis: { type: string } };
    expect(o.xAxis.data).toEqual(['2024-01-01 00:00:00', '2024-01-01 00:05:00']);
    expect(o.yAxis.type).toBe('value');
    expect(o.series.map((s) => [s.name, s.type, s.data, s.smooth, s.stack])).toEqual([
      ['a', 'line', [1, 3], false, undefined],
      ['b', 'line', [2.35, 4], false, undefined],
    ]);
  });

  it('follows the contract rendererOptions', () => {
    const o = chartOption(result, 'bar', { Stack: 'stacked', Orientation: 'h', LogScale: 'yes', Precision: 'no', values: { Smoothing: 'smooth' } }, palette) as {
      series: Series;
      xAxis: { type: string };
      yAxis: { type: string };
    };
    expect([o.xAxis.type, o.yAxis.type]).toEqual(['log', 'category']);
    expect(o.series.map((s) => [s.type, s.stack, s.smooth, s.data])).toEqual([
      ['bar', 'total', true, [1, 3]],
      ['bar', 'total', true, [2.345, 4]],
    ]);
    const area = chartOption(result, 'area', { ConnectNulls: 'yes', XAxisSplitLine: 'no' }, palette) as { series: Series; xAxis: { splitLine: { show: boolean } } };
    expect(area.series[0]).toEqual(expect.objectContaining({ type: 'line', connectNulls: true, areaStyle: { opacity: 0.35 } }));
    expect(area.xAxis.splitLine.show).toBe(false);
  });

  it('sums each series over time for a pie', () => {
    const o = chartOption(result, 'pie', {}, palette) as { series: Array<{ data: unknown }> };
    expect(o.series[0].data).toEqual([
      { name: 'b', value: 6.35 },
      { name: 'a', value: 4 },
    ]);
  });
});
