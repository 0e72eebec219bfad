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

describe('chartOption with empty time windows (null)', () => {
  // mean over windows: the service sends null for a window without entries.
  const gaps = {
    Names: ['mean'],
    Values: Array.from({ length: 80 }, (_, i) => ({
      TS: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
      Data: [i % 10 === 0 ? i : [1, 2, 3, 7, 8, 9].includes(i % 10) ? null : i + 0.5],
    })),
  };
  const pointsOf = (o: { series: Series }) => (o.series[0].data as Array<number | null | { value: number }>).map((d) => (d !== null && typeof d === 'object' ? d.value : d));

  it('leaves a gap where a window has no value, unless Connect gaps is on', () => {
    const o = chartOption(gaps, 'line', {}, palette) as { series: Series };
    expect(pointsOf(o).slice(0, 12)).toEqual([0, null, null, null, 4.5, 5.5, 6.5, null, null, null, 10, null]);
    expect(o.series[0].connectNulls).toBe(false);
    expect((chartOption(gaps, 'line', { ConnectNulls: 'yes' }, palette) as { series: Series }).series[0].connectNulls).toBe(true);
  });

  it('marks a value alone between two gaps, which a line alone would not show', () => {
    const o = chartOption(gaps, 'line', {}, palette) as { series: Series };
    const data = o.series[0].data as unknown[];
    // 80 points: symbols are off, so a lone value gets its own.
    expect(data[0]).toEqual({ value: 0, symbol: 'circle' });
    expect(data[4]).toBe(4.5);
    expect(data[5]).toBe(5.5);
    // Values next to another value are drawn by the line.
    expect(data.filter((d) => d !== null && typeof d === 'object')).toHaveLength(8);
    expect([o.series[0].showSymbol, o.series[0].symbol, o.series[0].showAllSymbol]).toEqual([true, 'none', true]);
    // Connected gaps draw the line through them; under 60 points every value has its symbol anyway.
    expect((chartOption(gaps, 'line', { ConnectNulls: 'yes' }, palette) as { series: Series }).series[0].data).toEqual(pointsOf(o));
    const few = { Names: gaps.Names, Values: gaps.Values.slice(0, 30) };
    expect((chartOption(few, 'line', {}, palette) as { series: Series }).series[0]).toEqual(expect.objectContaining({ data: pointsOf(o).slice(0, 30), showSymbol: true }));
  });

  it('counts an empty window as nothing in a pie, and as no bar', () => {
    const two = {
      Names: ['a', 'b'],
      Values: [
        { TS: '2024-01-01T00:00:00Z', Data: [null, 2] },
        { TS: '2024-01-01T00:05:00Z', Data: [3, null] },
      ],
    };
    expect((chartOption(two, 'pie', {}, palette) as { series: Array<{ data: unknown }> }).series[0].data).toEqual([
      { name: 'a', value: 3 },
      { name: 'b', value: 2 },
    ]);
    expect((chartOption(two, 'bar', {}, palette) as { series: Series }).series.map((s) => s.data)).toEqual([
      [null, 3],
      [2, null],
    ]);
  });
});
