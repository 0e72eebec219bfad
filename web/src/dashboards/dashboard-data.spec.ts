import { describe, expect, it } from '@jest/globals';
import {
  dataVersion,
  durationMs,
  emptyData,
  gridNumber,
  isoDuration,
  rangeToTimeframe,
  readDashboardData,
  resolveDashboardRange,
  searchesToRun,
  searchRange,
  templateRef,
  timeframeToRange,
  withNewTile,
  withoutTile,
  withSettings,
  withSpans,
  withTile,
} from './dashboard-data';
import { dashboardMatches, Dashboard, exportable, exportFileName, parseImport } from './dashboards-api';

const HOUR = { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null };

/** A dashboard as the product's own client saves it (gravwell docs, dashboards API). */
const product = () => ({
  searches: [
    { alias: 'Search 1', timeframe: {}, query: 'tag=* count\n', searchID: 4780372388 },
    { alias: 'by lib', reference: { id: '0b9e4a4e-3f0a-4c43-9c55-1a2b3c4d5e6f', type: 'savedQuery' } },
  ],
  tiles: [
    { title: 'count', renderer: 'text', span: { col: 4, row: 4, x: 0, y: 0 }, searchesIndex: 0, id: 16007878262310, rendererOptions: {} },
    { title: 'again', renderer: 'table', span: { col: 4, row: 4, x: 4, y: 0 }, searchesIndex: 0, id: 2, rendererOptions: {} },
    { title: 'lib', renderer: 'bar', span: { col: 8, row: 5, x: 0, y: 4 }, searchesIndex: 1, id: 3, rendererOptions: { Stack: 'stacked' } },
  ],
  timeframe: HOUR,
  version: 2,
  lastDataUpdate: '2020-09-22T09:17:06-06:00',
  grid: { gutter: '6', margin: null },
  someFutureKey: { keep: true },
});

describe('reading a dashboard', () => {
  it("reads the product's layout: tiles, searches, range, grid", () => {
    const r = readDashboardData(product());
    if (!r.ok) throw new Error(r.problem);
    expect(r.view.tiles.map((t) => [t.title, t.renderer, t.span, t.searchIndex, t.problem])).toEqual([
      ['count', 'text', { col: 4, row: 4, x: 0, y: 0 }, 0, undefined],
      ['again', 'table', { col: 4, row: 4, x: 4, y: 0 }, 0, undefined],
      ['lib', 'bar', { col: 8, row: 5, x: 0, y: 4 }, 1, undefined],
    ]);
    expect(r.view.range).toEqual({ kind: 'relative', preset: '1h' });
    expect([r.view.gutter, r.view.margin, r.view.linkZooming, r.view.liveUpdateSeconds]).toEqual([6, 0, false, undefined]);
    // A search shown by two tiles runs once.
    expect(searchesToRun(r.view)).toEqual([0, 1]);
  });

  it('says what is wrong with Data it cannot draw, instead of failing', () => {
    for (const [data, words] of [
      ['text', 'a string'],
      [null, 'null'],
      [[1, 2], 'a list'],
      [7, 'number'],
      [{ tiles: 'x' }, 'tiles are a string'],
      [{ tiles: [], searches: {} }, 'searches are object'],
    ] as const) {
      const r = readDashboardData(data);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problem).toContain(words);
    }
    expect(readDashboardData({}).ok).toBe(true);
  });

  it('a broken tile says why, the others draw', () => {
    const r = readDashboardData({
      searches: [{ query: 'tag=a' }, { alias: 'empty' }, 'junk', { reference: { id: 'x', type: 'flow' } }, { reference: { id: 'y', type: 'scheduledSearch' } }],
      tiles: [
        { title: 'fine', span: { col: 4, row: 3, x: 0, y: 0 }, searchesIndex: 0 },
        { title: 'missing', span: { col: 4, row: 3, x: 4, y: 0 }, searchesIndex: 9 },
        { title: 'no query', span: { col: 4, row: 3, x: 8, y: 0 }, searchesIndex: 1 },
        { title: 'junk', span: { col: 4, row: 3, x: 12, y: 0 }, searchesIndex: 2 },
        { title: 'scheduled', span: { col: 4, row: 3, x: 0, y: 3 }, searchesIndex: 3 },
        { title: 'nowhere', searchesIndex: 0 },
        42,
        { title: 'no index', span: { col: 2, row: 2, x: 0, y: 9 } },
        { title: 'scheduled', span: { col: 4, row: 3, x: 4, y: 9 }, searchesIndex: 4 },
      ],
    });
    if (!r.ok) throw new Error(r.problem);
    expect(r.view.tiles.map((t) => t.problem ?? 'ok')).toEqual([
      'ok',
      'This tile shows search 10, which the dashboard does not have (it has 5).',
      'Search 2 has no query.',
      'Search 3 of the dashboard is a string, not a search.',
      'Search 4 refers to a flow (x), which this console cannot run yet.',
      'This tile has no valid position and size (span); it is placed below the others.',
      'This tile is number, not a tile.',
      'This tile names no search (searchesIndex).',
      'ok',
    ]);
    expect(searchesToRun(r.view)).toEqual([0, 4]);
  });

  it('runs searches that refer to a template, with the default value the dashboard gives', () => {
    const r = readDashboardData({
      searches: [
        { reference: { id: 'g1', type: 'template', extras: { defaultValue: '10.0.0.1' } } },
        { reference: { id: 'g2', type: 'template', extras: { defaultValue: null } } },
      ],
      tiles: [
        { title: 'a', span: { col: 4, row: 3, x: 0, y: 0 }, searchesIndex: 0 },
        { title: 'b', span: { col: 4, row: 3, x: 4, y: 0 }, searchesIndex: 1 },
      ],
    });
    if (!r.ok) throw new Error(r.problem);
    expect(r.view.tiles.map((t) => t.problem ?? 'ok')).toEqual(['ok', 'ok']);
    expect(searchesToRun(r.view)).toEqual([0, 1]);
    expect(r.view.searches.map(templateRef)).toEqual([{ id: 'g1', defaultValue: '10.0.0.1' }, { id: 'g2' }]);
    expect(templateRef({ query: 'tag=a' })).toBeUndefined();
  });

  it('fits spans into the grid', () => {
    const r = readDashboardData({ searches: [{ query: 'q' }], tiles: [{ span: { col: 40, row: 0, x: -3, y: '2' }, searchesIndex: 0 }] });
    if (!r.ok) throw new Error(r.problem);
    expect(r.view.tiles[0].span).toEqual({ col: 16, row: 1, x: 0, y: 2 });
  });

  it('grid numbers may be strings; nonsense falls back', () => {
    expect([gridNumber('8', 1), gridNumber(4, 1), gridNumber(null, 1), gridNumber('x', 1), gridNumber(-2, 1)]).toEqual([8, 4, 1, 1, 1]);
  });
});

describe('time frames', () => {
  it('ISO durations both ways', () => {
    expect([durationMs('PT1H'), durationMs('P7D'), durationMs('PT15M'), durationMs('P1DT12H'), durationMs('nope'), durationMs('P')]).toEqual([
      3_600_000,
      604_800_000,
      900_000,
      129_600_000,
      undefined,
      undefined,
    ]);
    expect([isoDuration(3_600_000), isoDuration(604_800_000), isoDuration(5_400_000)]).toEqual(['PT1H', 'P7D', 'PT1H30M']);
  });

  it('product timeframes to picker ranges and back', () => {
    expect(timeframeToRange(HOUR)).toEqual({ kind: 'relative', preset: '1h' });
    expect(timeframeToRange({ durationString: null, timeframe: 'P7D' })).toEqual({ kind: 'relative', preset: '7d' });
    expect(timeframeToRange({ durationString: 'PT2H', timeframe: 'PT2H' })).toEqual({ kind: 'relative', preset: 'PT2H' });
    const abs = { durationString: null, timeframe: 'DATERANGE', start: '2024-05-01T10:00:00.000Z', end: '2024-05-01T11:00:00.000Z' };
    expect(timeframeToRange(abs)).toEqual({ kind: 'absolute', start: new Date(abs.start), end: new Date(abs.end) });
    expect(rangeToTimeframe({ kind: 'absolute', start: new Date(abs.start), end: new Date(abs.end) })).toEqual(abs);
    expect(rangeToTimeframe({ kind: 'relative', preset: '24h' })).toEqual({ durationString: 'P1D', timeframe: 'P1D', start: null, end: null });
    expect(timeframeToRange({})).toBeUndefined();
    const now = new Date('2024-05-01T12:00:00Z');
    expect(resolveDashboardRange({ kind: 'relative', preset: 'PT2H' }, now).start.toISOString()).toBe('2024-05-01T10:00:00.000Z');
  });

  it("a search's own timeframe wins unless the person chose one for the dashboard", () => {
    const dash = { kind: 'relative', preset: '1h' } as const;
    expect(searchRange({ timeframe: { durationString: 'P7D', timeframe: 'P7D' } }, dash, false)).toEqual({ kind: 'relative', preset: '7d' });
    expect(searchRange({ timeframe: {} }, dash, false)).toBe(dash);
    const picked = { kind: 'relative', preset: '15m' } as const;
    expect(searchRange({ timeframe: { durationString: 'P7D', timeframe: 'P7D' } }, picked, true)).toBe(picked);
  });
});

describe('editing keeps what it does not own', () => {
  it('moves tiles, renames, removes: unknown keys and other tiles untouched, version 2', () => {
    const d = product();
    const moved = withSpans(d, new Map([[1, { col: 6, row: 7, x: 10, y: 0 }]]));
    expect((moved.tiles as Array<{ span: unknown }>)[1].span).toEqual({ col: 6, row: 7, x: 10, y: 0 });
    expect(moved.tiles && (moved.tiles as unknown[])[0]).toBe(d.tiles[0]);
    expect(moved.someFutureKey).toBe(d.someFutureKey);
    expect(moved.version).toBe(2);
    expect(d.tiles[1].span).toEqual({ col: 4, row: 4, x: 4, y: 0 }); // the original is not changed

    const renamed = withTile(moved, 2, { title: 'Library', rendererOptions: { Stack: 'grouped' } });
    expect((renamed.tiles as Array<Record<string, unknown>>)[2]).toEqual({ ...d.tiles[2], title: 'Library', rendererOptions: { Stack: 'grouped' } });

    const fewer = withoutTile(renamed, 0);
    expect((fewer.tiles as Array<{ title: string }>).map((t) => t.title)).toEqual(['again', 'Library']);
    expect(fewer.searches).toBe(d.searches);
    expect(fewer.lastDataUpdate).toBe(d.lastDataUpdate);

    const set = withSettings(fewer, { liveUpdateInterval: 30, linkZooming: true, range: { kind: 'relative', preset: '4h' } });
    expect([set.liveUpdateInterval, set.linkZooming, set.timeframe]).toEqual([30, true, { durationString: 'PT4H', timeframe: 'PT4H', start: null, end: null }]);
  });

  it('adds a tile with its search; the same query reuses its search; the tile goes beside or below', () => {
    const rnd = () => 0.5;
    let d: Record<string, unknown> = emptyData();
    d = withNewTile(d, { title: 'A', query: 'tag=a count', renderer: 'table' }, rnd);
    d = withNewTile(d, { title: 'B', query: 'tag=b count', renderer: 'bar', rendererOptions: { Stack: 'stacked' } }, rnd);
    d = withNewTile(d, { title: 'A again', query: 'tag=a count', renderer: 'chart' }, rnd);
    expect(d.version).toBe(2);
    expect(d.searches).toEqual([
      { alias: 'A', timeframe: {}, query: 'tag=a count' },
      { alias: 'B', timeframe: {}, query: 'tag=b count' },
    ]);
    expect((d.tiles as Array<Record<string, unknown>>).map((t) => [t.title, t.renderer, t.searchesIndex, t.span])).toEqual([
      ['A', 'table', 0, { col: 8, row: 7, x: 0, y: 0 }],
      ['B', 'bar', 1, { col: 8, row: 7, x: 8, y: 0 }],
      ['A again', 'chart', 0, { col: 8, row: 7, x: 0, y: 7 }],
    ]);
    expect((d.tiles as Array<{ id: number }>)[0].id).toBe(Math.floor(0.5 * Number.MAX_SAFE_INTEGER));
    expect(() => withNewTile('not a dashboard', { title: 'x', query: 'q', renderer: 'text' })).toThrow('a string');
  });
});

describe('Data versions', () => {
  const v1 = () => ({ ...product(), version: 1 });

  it('a missing version counts as 2; 1 and unknown versions are read', () => {
    expect([dataVersion({}), dataVersion({ version: null }), dataVersion({ version: 2 }), dataVersion({ version: '1' }), dataVersion(v1()), dataVersion({ version: 3 })]).toEqual([
      2, 2, 2, 1, 1, 3,
    ]);
    const { version, ...none } = product();
    expect(version).toBe(2);
    const r = readDashboardData(none);
    if (!r.ok) throw new Error(r.problem);
    expect([r.view.version, r.view.readOnly]).toEqual([2, undefined]);
    expect(withSpans(none, new Map()).version).toBe(2);
  });

  it('a version 1 dashboard is drawn as it reads, but read-only: no edit stamps it version 2', () => {
    const r = readDashboardData(v1());
    if (!r.ok) throw new Error(r.problem);
    expect(r.view.tiles.map((t) => [t.title, t.searchIndex])).toEqual([
      ['count', 0],
      ['again', 0],
      ['lib', 1],
    ]);
    expect(r.view.version).toBe(1);
    expect(r.view.readOnly).toBe('This dashboard was made by an older client (version 1); the console edits version 2 dashboards only, so it is shown read-only.');
    const d = v1();
    for (const edit of [
      () => withSpans(d, new Map([[0, { col: 2, row: 2, x: 0, y: 0 }]])),
      () => withTile(d, 0, { title: 'x' }),
      () => withoutTile(d, 0),
      () => withSettings(d, { linkZooming: true }),
      () => withNewTile(d, { title: 'x', query: 'q', renderer: 'text' }),
    ])
      expect(edit).toThrow('older client (version 1)');
    expect(d).toEqual(v1());
  });

  it('a version it does not know is read-only too', () => {
    const r = readDashboardData({ ...product(), version: 3 });
    if (!r.ok) throw new Error(r.problem);
    expect(r.view.readOnly).toBe("This dashboard's Data has version 3, which this console does not know; it is shown read-only.");
    expect(() => withoutTile({ ...product(), version: 'beta' }, 0)).toThrow('version beta');
  });
});

describe('the list, export and import', () => {
  const dash = (over: Partial<Dashboard>): Dashboard => ({
    ID: 1,
    GUID: 'g',
    Name: 'Web traffic',
    Description: 'Requests by status',
    UID: 1,
    GIDs: null,
    Global: false,
    Created: '',
    Updated: '',
    Labels: ['web', 'ops'],
    Data: {},
    ...over,
  });

  it('filters by words and label', () => {
    expect(dashboardMatches(dash({}), 'web STATUS', undefined)).toBe(true);
    expect(dashboardMatches(dash({}), 'ops', undefined)).toBe(true);
    expect(dashboardMatches(dash({}), 'dns', undefined)).toBe(false);
    expect(dashboardMatches(dash({}), '', 'web')).toBe(true);
    expect(dashboardMatches(dash({ Labels: null }), '', 'web')).toBe(false);
  });

  it('exports what travels, and imports it back (or a product export, or a list of one)', () => {
    const d = dash({ Data: product(), GIDs: [3], UID: 9 });
    const out = exportable(d);
    expect(out).toEqual({ Name: 'Web traffic', Description: 'Requests by status', Labels: ['web', 'ops'], GUID: 'g', Data: d.Data });
    expect(parseImport(JSON.stringify(out))).toEqual(out);
    expect(parseImport(JSON.stringify([d]))).toMatchObject({ Name: 'Web traffic', Data: d.Data });
    expect(() => parseImport('{')).toThrow('not JSON');
    expect(() => parseImport('[]')).toThrow('holds 0 dashboards');
    expect(() => parseImport('{"Data":{}}')).toThrow('no Name');
    expect(() => parseImport('{"Name":"x"}')).toThrow('no Data');
    expect(() => parseImport('"x"')).toThrow('does not hold a dashboard');
    expect(exportFileName('Web traffic: 404s!')).toBe('web-traffic-404s.dashboard.json');
    expect(exportFileName('***')).toBe('dashboard.dashboard.json');
  });
});
