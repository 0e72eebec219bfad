/**
 * Issue 24, item 2: count, stats and the math modules before `chart` are temporal, as in the
 * product (gravwell/wiki search/stats/stats.md "Time Window Specification", search/chart/chart.md):
 * one series per key over time windows sized to the range (`over` sets the window), at most
 * `limit` (default 24) data sets per category with an `other` group for the rest. The same query
 * to `table` stays condensed.
 */
import { isTimeZoomDisabled } from './describe';
import { ALL, RANGE, T0, MIN, SEC } from './fixtures.spec-helper';
import { runQueryInMemory } from './memory';
import { parseQuery } from './parser';
import { ChartResult, RenderResult } from './renderers/renderer';
import { resultCsvRows } from './renderers/result-csv';
import { Entry } from './types';
import { formatTs } from './values';

const run = (q: string, opts: { indexers?: number; start?: Date; end?: Date; entries?: Entry[] } = {}): RenderResult =>
  runQueryInMemory(q, opts.entries ?? ALL, { ...RANGE, indexers: opts.indexers ?? 2, ...(opts.start ? { start: opts.start } : {}), ...(opts.end ? { end: opts.end } : {}) }).result;

function chart(q: string, opts: Parameters<typeof run>[1] = {}): ChartResult {
  const r = run(q, opts);
  if (r.kind !== 'chart') throw new Error(`not a chart: ${r.kind}`);
  return r.Entries;
}

const date = (us: number) => new Date(us / 1000);

describe('a count by drawn by chart', () => {
  // RANGE is T0 - 1h .. T0 + 1h: 2 hours call for 5 minute windows (fewer than 100 of them).
  const q = 'tag=app json status | count by status | chart count by status';

  it('is a series per key over time windows sized to the range, every window of the range on the axis', () => {
    const c = chart(q);
    expect(c.Names).toEqual(['200', '404', '500']);
    expect(c.Values.map((v) => v.TS)).toEqual(Array.from({ length: 24 }, (_, i) => formatTs(T0 - 60 * MIN + i * 5 * MIN)));
    const at = (us: number) => c.Values.find((v) => v.TS === formatTs(us))!.Data;
    expect(at(T0)).toEqual([3, 1, 1]); // minutes 0-4: 200 at 0, 3, 4; 404 at 1; 500 at 2
    expect(at(T0 + 5 * MIN)).toEqual([1, 0, 0]);
    expect(at(T0 - 5 * MIN)).toEqual([0, 0, 0]);
    expect(chart(q, { indexers: 1 })).toEqual(c);
  });

  it('a bare chart and the math module draw the same', () => {
    expect(chart('tag=app json status | count by status | chart')).toEqual(chart(q));
    expect(chart('tag=app json status | stats count by status | chart count by status')).toEqual(chart(q));
  });

  it('stays condensed when the same query goes to a table', () => {
    const r = run('tag=app json status | count by status | table status count');
    expect(r.kind === 'table' && r.Entries.Rows.map((x) => x.Row)).toEqual([
      ['200', '4'],
      ['404', '1'],
      ['500', '1'],
    ]);
  });

  it('takes its window from over', () => {
    const ten = { start: date(T0), end: date(T0 + 10 * MIN) };
    // 10 minutes alone call for 10 second windows; `over 1m` makes minutes
    expect(chart('tag=app json status | count by status | chart count by status', ten).Values).toHaveLength(60);
    const c = chart('tag=app json status | count by status over 1m | chart count by status', ten);
    expect(c.Values.map((v) => v.TS)).toEqual(Array.from({ length: 10 }, (_, i) => formatTs(T0 + i * MIN)));
    expect(c.Values.slice(0, 6).map((v) => v.Data)).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
  });

  it('bounds the windows of a huge range: a too fine over is widened, with a warning', () => {
    const decade = { start: date(T0 - 3650 * 24 * 60 * MIN), end: date(T0 + 60 * MIN) };
    const r = run('tag=app json status | count by status over 1s | chart count by status', decade);
    if (r.kind !== 'chart') throw new Error(r.kind);
    expect(r.Entries.Values.length).toBeLessThanOrEqual(100);
    expect(r.Entries.Values.reduce((s, v) => s + v.Data.reduce((a: number, b) => a + (b ?? 0), 0), 0)).toBe(6);
    expect(r.Warnings).toEqual([expect.stringMatching(/^count: "over 1s" makes more than 10000 time windows over the search range; windows of \d+s are used$/)]);
    const plain = run('tag=app json status | count by status | chart count by status', decade);
    expect(plain.kind === 'chart' && plain.Entries.Values.length).toBeLessThanOrEqual(100);
    expect(plain.Warnings).toBeUndefined();
  });

  it('is zoomable (TimeZoomDisabled false), while the table of it is not', () => {
    expect(isTimeZoomDisabled(parseQuery(q))).toBe(false);
    expect(isTimeZoomDisabled(parseQuery('tag=app json status | count by status | table'))).toBe(true);
  });

  it('leaves the windows without a value empty for operators with no value for nothing (mean, min, max)', () => {
    const c = chart('tag=app json bytes | stats mean(bytes) sum(bytes) | chart mean sum');
    expect(c.Names).toEqual(['mean', 'sum']);
    const at = (us: number) => c.Values.find((v) => v.TS === formatTs(us))!.Data;
    expect(at(T0)).toEqual([300, 1500]);
    expect(at(T0 - 5 * MIN)).toEqual([null, 0]);
  });
});

describe('total in a chart', () => {
  it('keeps a running total across the windows, where sum starts each window anew (stats.md, "sum() vs total()")', () => {
    const c = chart('tag=app json bytes | stats sum(bytes) total(bytes) over 1m | chart sum total', { start: date(T0), end: date(T0 + 10 * MIN) });
    expect(c.Values.map((v) => v.Data)).toEqual([
      [100, 100],
      [200, 300],
      [300, 600],
      [400, 1000],
      [500, 1500],
      [600, 2100],
      [0, 2100],
      [0, 2100],
      [0, 2100],
      [0, 2100],
    ]);
  });
});

describe('a chart download', () => {
  it('writes a window without a value as an empty cell', () => {
    const r = run('tag=app json bytes | stats mean(bytes) | chart mean', { start: date(T0), end: date(T0 + 10 * MIN) });
    if (r.kind !== 'chart') throw new Error(r.kind);
    const rows = resultCsvRows(r);
    expect(rows[0]).toEqual(['TIMESTAMP', 'mean']);
    expect(rows[1]).toEqual([formatTs(T0), '100']);
    expect(rows[rows.length - 1]).toEqual([formatTs(T0 + 10 * MIN - 10 * SEC), '']);
  });
});

describe('chart limit and the other group', () => {
  const keyed = (n: number): Entry[] =>
    Array.from({ length: n }, (_, i) => ({ ts: T0 + i * SEC, tag: 1, src: '', data: Buffer.from(`k=key${String(i).padStart(2, '0')}`), evs: new Map() }));

  it('draws at most limit data sets per category: limit - 1 keys and other, the sum of the rest', () => {
    const c = chart('tag=app json user | count by user | chart count by user limit 2');
    expect(c.Names).toEqual(['alice', 'other']);
    const at = (us: number) => c.Values.find((v) => v.TS === formatTs(us))!.Data;
    expect(at(T0)).toEqual([2, 3]); // minutes 0-4: alice at 0 and 2; bob at 1 and 4, carol at 3
    expect(at(T0 + 5 * MIN)).toEqual([1, 0]);
  });

  it('limits to 24 by default', () => {
    const many = keyed(30).map((e, i) => ({ ...e, data: Buffer.from(`k=key${String(i).padStart(2, '0')} n=${i + 1}`) }));
    const c = chart('tag=app kv k n | sum n by k | chart sum by k', { entries: many });
    expect(c.Names).toHaveLength(24);
    expect(c.Names.slice(0, 3)).toEqual(['key29', 'key28', 'key27']);
    expect(c.Names[23]).toBe('other');
    const total = (name: string) => c.Values.reduce((s, v) => s + (v.Data[c.Names.indexOf(name)] ?? 0), 0);
    expect(total('other')).toBe(((1 + 7) * 7) / 2); // keys 00..06 hold 1..7
    expect(chart('tag=app kv k | count by k | chart count by k limit 30', { entries: many }).Names).toHaveLength(30);
  });

  it('makes one other group per category', () => {
    const c = chart('tag=app json user bytes | stats count sum(bytes) by user | chart count sum by user limit 2');
    expect(c.Names.filter((n) => n.startsWith('other'))).toEqual(['other count', 'other sum']);
    expect(c.Names).toHaveLength(4);
  });
});
