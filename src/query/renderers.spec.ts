import { ALL, RANGE, T0, SEC } from './fixtures.spec-helper';
import { runQueryInMemory } from './memory';
import { toSearchEntry } from './output';
import { niceCeil } from './renderers/gauge';
import { ChartResult, RenderResult } from './renderers/renderer';
import { Entry } from './types';

const render = (q: string, data: Entry[] = ALL): RenderResult => runQueryInMemory(q, data, { ...RANGE, indexers: 1 }).result;
const ts = (sec: number) => new Date((T0 + sec * SEC) / 1000).toISOString().replace('.000Z', '.000000Z');

describe('text and raw', () => {
  it('return entries newest first', () => {
    for (const q of ['tag=syslog', 'tag=syslog text', 'tag=syslog raw', 'tag=syslog grep level | text']) {
      const r = render(q);
      expect(r.kind).toBe('entries');
      if (r.kind !== 'entries') return;
      expect(r.EntryCount).toBe(4);
      expect(r.Entries.map((e) => (e.ts - T0) / SEC)).toEqual([210, 150, 90, 30]);
    }
  });

  it('keep the order a module defined', () => {
    const r = render('tag=syslog sort by time asc | text');
    expect(r.kind === 'entries' && r.Entries.map((e) => (e.ts - T0) / SEC)).toEqual([30, 90, 150, 210]);
  });

  it('map to the SearchEntry wire shape', () => {
    const r = render('tag=csv fields [0] as user [3] as code | json x | limit 1');
    if (r.kind !== 'entries') throw new Error('kind');
    const e = toSearchEntry(r.Entries[0]);
    expect(e).toEqual({
      TS: ts(20),
      SRC: '10.0.2.1',
      Tag: 3,
      Data: Buffer.from('bob,POST,/login,403').toString('base64'),
      Enumerated: [
        { Name: 'user', ValueStr: 'bob', Value: { Type: 13, Data: Buffer.from('bob').toString('base64') } },
        { Name: 'code', ValueStr: '403', Value: { Type: 13, Data: Buffer.from('403').toString('base64') } },
      ],
    });
    const n = render('tag=app count');
    if (n.kind !== 'entries') throw new Error('kind');
    const cnt = toSearchEntry(n.Entries[0]).Enumerated[0];
    expect(cnt.ValueStr).toBe('7');
    expect(cnt.Value.Type).toBe(9);
    expect(Buffer.from(cnt.Value.Data, 'base64').readBigInt64LE()).toBe(7n);
  });
});

describe('table', () => {
  it('renders named columns as strings, newest first', () => {
    expect(render('tag=csv fields [0] as user [3] as code | table user code')).toEqual({
      kind: 'table',
      EntryCount: 2,
      Entries: {
        Columns: ['user', 'code'],
        Rows: [
          { TS: ts(20), Row: ['bob', '403'] },
          { TS: ts(10), Row: ['alice', '200'] },
        ],
      },
    });
  });

  it('defaults to every EV, fills missing cells with "", reads universal EVs', () => {
    const r = render('tag=app json user meta.host as h | table');
    if (r.kind !== 'table') throw new Error('kind');
    expect(r.Entries.Columns).toEqual(['user', 'h']);
    expect(r.Entries.Rows[0].Row).toEqual(['', '']);
    expect(r.Entries.Rows[1].Row).toEqual(['alice', '']);
    const u = render('tag=csv table SRC TAG');
    expect(u.kind === 'table' && u.Entries.Rows[0].Row).toEqual(['10.0.2.1', 'csv']);
  });

  it('keeps the order of condensed results', () => {
    const r = render('tag=app json user | count by user | sort by count asc | table user count');
    expect(r.kind === 'table' && r.Entries.Rows.map((x) => x.Row)).toEqual([
      ['carol', '1'],
      ['bob', '2'],
      ['alice', '3'],
    ]);
    expect(r.EntryCount).toBe(3);
  });
});

/** A chart over time windows draws every window of the range: the windows with entries. */
function windowsWithEntries(r: RenderResult): ChartResult {
  if (r.kind !== 'chart') throw new Error(`not a chart: ${r.kind}`);
  return { Names: r.Entries.Names, Values: r.Entries.Values.filter((v) => v.Data.some((d) => d !== null && d !== 0)) };
}

describe('chart', () => {
  it('charts one EV over stats buckets, every bucket of the range', () => {
    const r = render('tag=app json bytes | stats sum(bytes) over 2m | chart sum');
    expect(r.kind === 'chart' && [r.EntryCount, r.Entries.Values.length]).toEqual([3, 60]); // 2 hours in 2 minute windows
    expect(windowsWithEntries(r)).toEqual({
      Names: ['sum'],
      Values: [
        { TS: ts(0), Data: [300] },
        { TS: ts(120), Data: [700] },
        { TS: ts(240), Data: [1100] },
      ],
    });
  });

  it('charts several EVs', () => {
    const r = render('tag=app json bytes | stats min(bytes) max(bytes) mean(bytes) over 2m | chart min max mean');
    expect(r.kind === 'chart' && r.Entries.Values[0]).toEqual({ TS: ts(-3600), Data: [null, null, null] });
    expect(windowsWithEntries(r)).toEqual({
      Names: ['min', 'max', 'mean'],
      Values: [
        { TS: ts(0), Data: [100, 200, 150] },
        { TS: ts(120), Data: [300, 400, 350] },
        { TS: ts(240), Data: [500, 600, 550] },
      ],
    });
  });

  it('charts by an EV, biggest series first, with limit', () => {
    const q = 'tag=app json user | stats count by user over 2m | chart count by user';
    const full = render(q);
    expect(windowsWithEntries(full)).toEqual({
      Names: ['alice', 'bob', 'carol'],
      Values: [
        { TS: ts(0), Data: [1, 1, 0] },
        { TS: ts(120), Data: [1, 0, 1] },
        { TS: ts(240), Data: [1, 1, 0] },
      ],
    });
    // limit 2 of 3 keys: the biggest and `other`, the rest (chart.md, "Chart Limiting and Grouping")
    const top = windowsWithEntries(render(`${q} limit 2`));
    expect(top.Names).toEqual(['alice', 'other']);
    expect(top.Values[1].Data).toEqual([1, 1]);
  });

  it('a bare chart draws what the last aggregate made, by its keys (count by user | chart = chart count by user)', () => {
    const bare = render('tag=app json user | stats count by user over 2m | chart');
    expect(bare).toEqual(render('tag=app json user | stats count by user over 2m | chart count by user'));
    const two = render('tag=app json user bytes | stats mean(bytes) max(bytes) over 2m | chart');
    expect(two.kind === 'chart' && two.Entries.Names).toEqual(['mean', 'max']);
    expect(render('tag=app json user | stats count by user over 2m | chart limit 1')).toEqual(
      render('tag=app json user | stats count by user over 2m | chart count by user limit 1'),
    );
  });

  it('charts by several keys, joined with a space', () => {
    const r = render('tag=app json user bytes | eval big = bytes > 250 | stats count by user big over 2m | chart count by user big');
    const names = r.kind === 'chart' ? r.Entries.Names : [];
    expect(names.length).toBeGreaterThan(1);
    expect(names.filter((n) => !/^(alice|bob|carol) (true|false)$/.test(n))).toEqual([]);
  });

  it('counts raw entries per timestamp', () => {
    const r = render('tag=csv chart');
    expect(r.kind === 'chart' && r.Entries).toEqual({
      Names: ['count'],
      Values: [
        { TS: ts(10), Data: [1] },
        { TS: ts(20), Data: [1] },
      ],
    });
  });

  it('buckets many timestamps into nice widths', () => {
    const many: Entry[] = Array.from({ length: 200 }, (_, i) => ({
      ts: T0 + i * SEC,
      tag: 1,
      src: '',
      data: Buffer.from(`{"v":${i % 2}}`),
      evs: new Map(),
    }));
    const r = render('tag=app chart', many);
    if (r.kind !== 'chart') throw new Error('kind');
    expect(r.Entries.Values).toHaveLength(40);
    expect(r.Entries.Values[0]).toEqual({ TS: ts(0), Data: [5] });
    expect(r.Entries.Values[39]).toEqual({ TS: ts(195), Data: [5] });
    const m = render('tag=app json v | chart v', many);
    expect(m.kind === 'chart' && m.Entries.Values[0].Data).toEqual([0.4]); // mean of 0,1,0,1,0
  });
});

describe('gauge and numbercard', () => {
  it('shows the value of the aggregate', () => {
    expect(render('tag=app json bytes | mean bytes | gauge mean')).toEqual({
      kind: 'gauge',
      EntryCount: 1,
      Entries: [{ Name: 'mean', Magnitude: 350, Min: 0, Max: 500 }],
    });
    expect(render('tag=app count | numbercard count')).toEqual({
      kind: 'gauge',
      EntryCount: 1,
      Entries: [{ Name: 'count', Magnitude: 7, Min: 0, Max: 10 }],
    });
  });

  it('supports (EV min max "Label") and several gauges', () => {
    const r = render('tag=app json bytes | stats mean(bytes) max(bytes) | gauge (mean 0 1000 "Avg bytes") (max 10) count');
    expect(r.kind === 'gauge' && r.Entries).toEqual([
      { Name: 'Avg bytes', Magnitude: 350, Min: 0, Max: 1000 },
      { Name: 'max', Magnitude: 600, Min: 10, Max: 1000 },
      { Name: 'count', Magnitude: 0, Min: 0, Max: 0 },
    ]);
  });

  it('takes the newest entry when there are several', () => {
    const r = render('tag=app json bytes | gauge bytes');
    expect(r.kind === 'gauge' && r.Entries[0].Magnitude).toBe(600);
    expect(r.EntryCount).toBe(7);
  });

  it.each([
    [350, 500],
    [7, 10],
    [100, 100],
    [101, 200],
    [0.3, 0.5],
    [0, 0],
    [-3, 5],
  ])('niceCeil(%s) = %s', (x, y) => expect(niceCeil(x)).toBeCloseTo(y, 10));
});

describe('count of nothing', () => {
  it('shows 0 in every renderer', () => {
    const end = new Date(RANGE.end).toISOString().replace('.000Z', '.000000Z');
    expect(render('tag=nothing count | numbercard count')).toEqual({ kind: 'gauge', EntryCount: 1, Entries: [{ Name: 'count', Magnitude: 0, Min: 0, Max: 0 }] });
    expect(render('tag=nothing stats count | gauge count')).toEqual({ kind: 'gauge', EntryCount: 1, Entries: [{ Name: 'count', Magnitude: 0, Min: 0, Max: 0 }] });
    expect(render('tag=nothing count | table')).toEqual({ kind: 'table', EntryCount: 1, Entries: { Columns: ['count'], Rows: [{ TS: end, Row: ['0'] }] } });
    // before a chart, count runs over time windows: a line at 0 over the range (2 hours: 5 minute windows)
    const windows = Array.from({ length: 24 }, (_, i) => ({ TS: ts(-3600 + i * 300), Data: [0] }));
    expect(render('tag=nothing count | chart count')).toEqual({ kind: 'chart', EntryCount: 0, Entries: { Names: ['count'], Values: windows } });
    const text = render('tag=nothing count');
    expect(text.kind === 'entries' && text.Entries.map((e) => toSearchEntry(e).Enumerated.map((v) => [v.Name, v.ValueStr]))).toEqual([[['count', '0']]]);
    expect(render('tag=nothing count by SRC | table SRC count')).toEqual({ kind: 'table', EntryCount: 0, Entries: { Columns: ['SRC', 'count'], Rows: [] } });
  });
});
