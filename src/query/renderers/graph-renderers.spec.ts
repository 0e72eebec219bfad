/** hex, stackgraph, wordcloud and pointmap (issue 16): result shapes of the product's renderer pages. */
import { ALL, RANGE, SEC, T0 } from '../fixtures.spec-helper';
import { runQueryInMemory } from '../memory';
import { parseQuery } from '../parser';
import { compileQuery } from '../planner';
import { Entry, ParseError } from '../types';
import { RenderResult } from './renderer';
import { pointmapCsvRows, stackgraphCsvRows } from './result-csv';
import { isPointmapEntries, isStackgraphEntries } from './result-shapes';

const render = (q: string, data: Entry[] = ALL, indexers = 1): RenderResult => runQueryInMemory(q, data, { ...RANGE, indexers }).result;

function parseError(q: string): string {
  try {
    parseQuery(q);
  } catch (e) {
    if (e instanceof ParseError) return e.message;
    throw e;
  }
  throw new Error(`query parsed: ${q}`);
}

describe('hex', () => {
  it('returns the entries as text does, with the same download formats', () => {
    const hex = render('tag=syslog hex');
    const text = render('tag=syslog text');
    expect(hex.kind).toBe('entries');
    expect(hex).toEqual(text);
    expect(compileQuery('tag=x hex', RANGE).downloadFormats).toEqual(['text', 'json', 'csv', 'archive']);
    expect(parseError('hex x')).toBe('ModuleError: hex: unexpected argument "x"');
  });
});

describe('stackgraph', () => {
  it('stacks components per bar, biggest bars and components first', () => {
    // alice: 200 (twice), 500; bob: 404, 200; carol: 200.
    const r = render('tag=app json user status | count by user status | stackgraph user status count');
    expect(r).toEqual({
      kind: 'stackgraph',
      EntryCount: 5,
      Entries: [
        {
          Key: 'alice',
          Values: [
            { Label: '200', Value: 2 },
            { Label: '500', Value: 1 },
          ],
        },
        {
          Key: 'bob',
          Values: [
            { Label: '200', Value: 1 },
            { Label: '404', Value: 1 },
          ],
        },
        { Key: 'carol', Values: [{ Label: '200', Value: 1 }] },
      ],
    });
    expect(render('tag=app json user status | count by user status | stackgraph user status count', ALL, 3)).toEqual(r);
    if (r.kind !== 'stackgraph') throw new Error('kind');
    expect(stackgraphCsvRows(r.Entries)).toEqual([
      ['Key', 'Label', 'Value'],
      ['alice', '200', '2'],
      ['alice', '500', '1'],
      ['bob', '200', '1'],
      ['bob', '404', '1'],
      ['carol', '200', '1'],
    ]);
    expect(isStackgraphEntries(r.Entries)).toBe(true);
    expect(isStackgraphEntries([{ Key: 'a', Values: [{ Label: 'x', Value: 'NaN' }] }])).toBe(false);
  });

  it('re-condenses raw entries like chart cells: sums, min/max, else the mean, rounded', () => {
    const r = render('tag=app json user meta.host bytes | stackgraph user host bytes');
    // "bytes" is not an operator name (count, sum, min, max...): the entries' values are averaged.
    expect(r.kind === 'stackgraph' && r.Entries).toEqual([
      {
        Key: 'bob',
        Values: [
          { Label: 'h1', Value: 500 },
          { Label: 'h2', Value: 200 },
        ],
      },
      { Key: 'carol', Values: [{ Label: 'h2', Value: 400 }] },
      { Key: 'alice', Values: [{ Label: 'h1', Value: 200 }] },
    ]);
    const s = render('tag=app json user meta.host bytes | sum bytes by user host | stackgraph user host sum');
    expect(s.kind === 'stackgraph' && s.Entries[0]).toEqual({
      Key: 'bob',
      Values: [
        { Label: 'h1', Value: 500 },
        { Label: 'h2', Value: 200 },
      ],
    });
    expect(s.kind === 'stackgraph' && s.Entries[1]).toEqual({ Key: 'alice', Values: [{ Label: 'h1', Value: 400 }] });
  });

  it('needs exactly three EVs', () => {
    expect(parseError('stackgraph a b')).toBe('ModuleError: stackgraph: missing magnitude EV (stackgraph <bar EV> <component EV> <magnitude EV>)');
    expect(parseError('stackgraph a b c d')).toBe('ModuleError: stackgraph: unexpected argument "d"');
    expect(compileQuery('count by a b | stackgraph a b count', RANGE).downloadFormats).toEqual(['json', 'csv', 'archive']);
  });
});

describe('wordcloud', () => {
  it('sizes the keys of the upstream aggregate by the magnitude (gauge shape)', () => {
    expect(render('tag=app json user | count by user | wordcloud count')).toEqual({
      kind: 'gauge',
      EntryCount: 3,
      Entries: [
        { Name: 'alice', Magnitude: 3, Min: 1, Max: 3 },
        { Name: 'bob', Magnitude: 2, Min: 1, Max: 3 },
        { Name: 'carol', Magnitude: 1, Min: 1, Max: 3 },
      ],
    });
  });

  it('joins several keys with a space, or re-condenses on the "by" keys', () => {
    const q = 'tag=app json user meta.host | stats count by user host';
    const joined = render(`${q} | wordcloud count`);
    expect(joined.kind === 'gauge' && joined.Entries.map((w) => [w.Name, w.Magnitude])).toEqual([
      ['alice h1', 2],
      ['bob h1', 1],
      ['bob h2', 1],
      ['carol h2', 1],
    ]);
    const byHost = render(`${q} | wordcloud count by host`, ALL, 2);
    expect(byHost.kind === 'gauge' && byHost.Entries).toEqual([
      { Name: 'h1', Magnitude: 3, Min: 2, Max: 3 },
      { Name: 'h2', Magnitude: 2, Min: 2, Max: 3 },
    ]);
  });

  it('without keys shows one word, the magnitude name; refuses a missing magnitude', () => {
    const r = render('tag=app count | wordcloud count');
    expect(r.kind === 'gauge' && r.Entries).toEqual([{ Name: 'count', Magnitude: 7, Min: 7, Max: 7 }]);
    expect(parseError('wordcloud')).toBe('ModuleError: wordcloud: missing magnitude EV');
  });
});

describe('pointmap', () => {
  const located = (docs: object[]): Entry[] => docs.map((d, i) => ({ ts: T0 + i * SEC, tag: 1, src: '', data: Buffer.from(JSON.stringify(d)), evs: new Map() }));
  const places = located([
    { ip: '1.1.1.1', Location: '45.5 -122.25', bytes: 10 },
    { ip: '2.2.2.2', Location: '10,20' },
    { ip: '3.3.3.3', Location: 'nowhere' },
    { ip: '4.4.4.4', Location: '95 10' },
    { ip: '5.5.5.5', lat: -33.9, long: 151.2 },
  ]);

  it('places entries with a Location, newest first, with the named EVs as metadata', () => {
    const r = render('tag=app json ip Location bytes | pointmap ip bytes', places);
    expect(r).toEqual({
      kind: 'pointmap',
      EntryCount: 5,
      Entries: [
        { Loc: { Lat: 10, Long: 20 }, Metadata: [{ ip: '2.2.2.2' }] },
        { Loc: { Lat: 45.5, Long: -122.25 }, Metadata: [{ ip: '1.1.1.1' }, { bytes: '10' }] },
      ],
    });
    if (r.kind !== 'pointmap') throw new Error('kind');
    expect(pointmapCsvRows(r.Entries)).toEqual([
      ['Lat', 'Long', 'ip', 'bytes'],
      ['10', '20', '2.2.2.2', ''],
      ['45.5', '-122.25', '1.1.1.1', '10'],
    ]);
    expect(isPointmapEntries(r.Entries)).toBe(true);
    expect(isPointmapEntries([{ Loc: { Lat: 1 } }])).toBe(false);
  });

  it('reads -lat/-long, -loc and the 16-byte encoding', () => {
    const ll = render('tag=app json ip lat long | pointmap -lat lat -long long ip', places);
    expect(ll.kind === 'pointmap' && ll.Entries).toEqual([{ Loc: { Lat: -33.9, Long: 151.2 }, Metadata: [{ ip: '5.5.5.5' }] }]);
    const bin = Buffer.alloc(16);
    bin.writeDoubleLE(1.5, 0);
    bin.writeDoubleLE(-2.5, 8);
    const loc = render('tag=app pointmap -loc where', [{ ts: T0, tag: 1, src: '', data: Buffer.alloc(0), evs: new Map([['where', bin]]) }]);
    expect(loc.kind === 'pointmap' && loc.Entries).toEqual([{ Loc: { Lat: 1.5, Long: -2.5 } }]);
  });

  it('shows at most 1000 points, the newest, whatever the indexers', () => {
    const many = located(Array.from({ length: 1500 }, (_, i) => ({ n: i, Location: `${(i % 180) - 89} ${(i % 360) - 179}` })));
    for (const indexers of [1, 3]) {
      const r = render('tag=app json n Location | pointmap n', many, indexers);
      if (r.kind !== 'pointmap') throw new Error('kind');
      expect(r.EntryCount).toBe(1500);
      expect(r.Entries).toHaveLength(1000);
      expect(r.Entries[0].Metadata).toEqual([{ n: '1499' }]);
      expect(r.Entries[999].Metadata).toEqual([{ n: '500' }]);
    }
    const sorted = render('tag=app json n Location | sort by n asc | pointmap n', many);
    expect(sorted.kind === 'pointmap' && sorted.Entries[0].Metadata).toEqual([{ n: '0' }]);
  });

  it('refuses half a location', () => {
    expect(parseError('pointmap -lat a')).toBe('ModuleError: pointmap: -lat and -long go together');
    expect(parseError('pointmap -loc l -lat a -long b')).toBe('ModuleError: pointmap: use either -loc or -lat/-long');
    expect(parseError('pointmap -radius 5')).toBe('ModuleError: pointmap: unknown flag -radius');
    expect(compileQuery('pointmap', RANGE).downloadFormats).toEqual(['json', 'csv', 'archive']);
  });
});
