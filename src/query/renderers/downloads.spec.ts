/** The download writers (issue 15): one writer per format per result kind, the same bytes from every source. */
import { ALL, RANGE, T0, SEC, TAGS } from '../fixtures.spec-helper';
import { runQueryInMemory } from '../memory';
import { toSearchEntry } from '../output';
import { parseQuery } from '../parser';
import { Entry } from '../types';
import { condensedBody, DOWNLOAD_CONTENT_TYPES, DOWNLOAD_EXTENSIONS } from './downloads';
import { EntryDownload, entryCsvColumns, EntryFormat, liveEntry, storedEntry } from './entry-download';
import { findRenderer, renderModuleInfos, resultKindOf } from './registry';
import { emptyResult, RenderResult, streamsEntries } from './renderer';

const tagName = (t: number) => TAGS[t] ?? String(t);
const render = (q: string): RenderResult => runQueryInMemory(q, ALL, { ...RANGE, indexers: 1 }).result;
const entriesOf = (q: string): Entry[] => {
  const r = render(q);
  if (r.kind !== 'entries') throw new Error(`${q} is not an entries result`);
  return r.Entries;
};
const bytes = (parts: Array<string | Buffer>) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p)))).toString('latin1');

/** Writes `batches` with one writer, entries taken from `view`. */
function write(format: EntryFormat, q: string, batches: Entry[][], view: (e: Entry) => ReturnType<typeof liveEntry>): string {
  const w = new EntryDownload(format, entryCsvColumns(parseQuery(q)));
  return bytes([...batches.map((b) => w.entries(b.map(view))), w.end()]);
}

describe('entries downloads', () => {
  const q = 'tag=app json user status | grep -v malformed';
  const entries = entriesOf(q);

  it('write csv as TIMESTAMP,TAG,SRC,DATA and the EV columns, CRLF, quoted where needed', () => {
    const csv = write('csv', q, [entries.slice(0, 2)], (e) => liveEntry(e, tagName));
    expect(csv).toBe(
      'TIMESTAMP,TAG,SRC,DATA,user,status\r\n' +
        `${new Date((T0 + 300 * SEC) / 1000).toISOString().replace('.000Z', '.000000Z')},app,10.0.0.1,"{""user"":""alice"",""status"":200,""bytes"":600}",alice,200\r\n` +
        `${new Date((T0 + 240 * SEC) / 1000).toISOString().replace('.000Z', '.000000Z')},app,10.0.0.2,"{""user"":""bob"",""status"":200,""bytes"":500,""meta"":{""host"":""h1""}}",bob,200\r\n`,
    );
  });

  it.each(['json', 'csv', 'text'] as const)('write the same %s bytes however the entries are batched, live or stored', (format) => {
    const whole = write(format, q, [entries], (e) => liveEntry(e, tagName));
    expect(write(format, q, [entries.slice(0, 1), [], entries.slice(1, 4), entries.slice(4)], (e) => liveEntry(e, tagName))).toBe(whole);
    expect(write(format, q, [entries], (e) => storedEntry(JSON.stringify(toSearchEntry(e)), tagName))).toBe(whole);
  });

  it('write json as the SearchEntry array and text as the data lines; the worker-encoded path matches', () => {
    const json = write('json', q, [entries], (e) => liveEntry(e, tagName));
    expect(JSON.parse(json)).toEqual(entries.map(toSearchEntry));
    expect(json).toBe(JSON.stringify(entries.map(toSearchEntry)));
    const w = new EntryDownload('json');
    const encoded = bytes([
      w.encoded(entries.slice(0, 2).map((e) => Buffer.from(JSON.stringify(toSearchEntry(e))))),
      w.encoded([]),
      w.encoded(entries.slice(2).map((e) => Buffer.from(JSON.stringify(toSearchEntry(e))))),
      w.end(),
    ]);
    expect(encoded).toBe(json);
    expect(write('text', q, [entries], (e) => liveEntry(e, tagName))).toBe(entries.map((e) => e.data.toString('latin1') + '\n').join(''));
  });

  it('keep binary data as it is in text downloads', () => {
    const e: Entry = { ts: T0, tag: 1, src: '::1', data: Buffer.from([0, 255, 10, 128]), evs: new Map() };
    const w = new EntryDownload('text');
    expect(Buffer.concat([w.entries([storedEntry(JSON.stringify(toSearchEntry(e)), tagName)]) as Buffer, Buffer.from(w.end())])).toEqual(Buffer.from([0, 255, 10, 128, 10]));
  });

  it('open and close an empty download: [] in json, the header with the produced EVs in csv, nothing in text', () => {
    expect(write('json', q, [], (e) => liveEntry(e, tagName))).toBe('[]');
    expect(write('csv', q, [[]], (e) => liveEntry(e, tagName))).toBe('TIMESTAMP,TAG,SRC,DATA,user,status\r\n');
    expect(write('text', q, [], (e) => liveEntry(e, tagName))).toBe('');
  });

  it('name the EVs of the last condensing module on, and the first entry s own, as csv columns', () => {
    expect(entryCsvColumns(parseQuery('tag=app json user bytes | sum bytes by user'))).toEqual(['sum']);
    expect(entryCsvColumns(parseQuery('tag=app json user bytes'))).toEqual(['user', 'bytes']);
    const q2 = 'tag=app json user bytes | sum bytes by user';
    const csv = write('csv', q2, [entriesOf(q2)], (e) => liveEntry(e, tagName));
    expect(csv.split('\r\n')[0]).toBe('TIMESTAMP,TAG,SRC,DATA,user,sum');
    expect(
      csv
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',').slice(-2).join(',')),
    ).toEqual(['alice,1000', 'bob,700', 'carol,400', '']);
  });
});

describe('condensed downloads', () => {
  it('write each kind s csv with its header and CRLF, and its json as the page s Entries', () => {
    const cases: Array<[string, string]> = [
      ['tag=app json user | count by user | table user count', 'user,count\r\nalice,3\r\nbob,2\r\ncarol,1\r\n'],
      ['tag=app json user | count by user | gauge count', 'Name,Magnitude,Min,Max\r\ncount,3,0,5\r\n'],
      ['tag=app json user | count by user | wordcloud count', 'Name,Magnitude,Min,Max\r\nalice,3,1,3\r\nbob,2,1,3\r\ncarol,1,1,3\r\n'],
      [
        'tag=app json user status | count by user status | stackgraph user status count',
        'Key,Label,Value\r\nalice,200,2\r\nalice,500,1\r\nbob,200,1\r\nbob,404,1\r\ncarol,200,1\r\n',
      ],
    ];
    for (const [q, csv] of cases) {
      const r = render(q);
      if (r.kind === 'entries') throw new Error(q);
      expect([q, condensedBody(r, 'csv')]).toEqual([q, csv]);
      expect(JSON.parse(condensedBody(r, 'json'))).toEqual(r.Entries);
    }
    const chart = render('tag=app json user | stats count over 1m | chart count');
    if (chart.kind !== 'chart') throw new Error('chart');
    expect(condensedBody(chart, 'csv').split('\r\n')[0]).toBe('TIMESTAMP,count');
  });

  it('write the empty result of each kind as its page shows it', () => {
    const empty = (k: Parameters<typeof emptyResult>[0]) => {
      const r = emptyResult(k);
      if (r.kind === 'entries') throw new Error(k);
      return [condensedBody(r, 'json'), condensedBody(r, 'csv')];
    };
    expect(empty('table')).toEqual(['{"Columns":[],"Rows":[]}', '\r\n']);
    expect(empty('chart')).toEqual(['{"Names":[],"Values":[]}', 'TIMESTAMP\r\n']);
    expect(empty('gauge')).toEqual(['[]', 'Name,Magnitude,Min,Max\r\n']);
    expect(empty('stackgraph')).toEqual(['[]', 'Key,Label,Value\r\n']);
    expect(empty('pointmap')).toEqual(['[]', 'Lat,Long\r\n']);
    expect(emptyResult('entries')).toEqual({ kind: 'entries', EntryCount: 0, Entries: [] });
  });
});

describe('renderer facts', () => {
  it('each renderer names its result kind; only text, raw and hex stream entries', () => {
    const kinds = Object.fromEntries(renderModuleInfos().map((m) => [m.Name, findRenderer(m.Name)!.kind]));
    expect(kinds).toEqual({
      text: 'entries',
      raw: 'entries',
      hex: 'entries',
      table: 'table',
      chart: 'chart',
      gauge: 'gauge',
      numbercard: 'gauge',
      stackgraph: 'stackgraph',
      wordcloud: 'gauge',
      pointmap: 'pointmap',
    });
    expect(Object.keys(kinds).filter((n) => streamsEntries(resultKindOf(n)))).toEqual(['text', 'raw', 'hex']);
    expect(resultKindOf('nosuchrenderer')).toBe('entries');
  });

  it('each download format has one content type and one file extension', () => {
    expect(DOWNLOAD_CONTENT_TYPES).toEqual({
      json: 'application/json; charset=utf-8',
      csv: 'text/csv; charset=utf-8',
      text: 'text/plain; charset=utf-8',
      archive: 'application/gzip',
    });
    expect(DOWNLOAD_EXTENSIONS).toEqual({ json: 'json', csv: 'csv', text: 'txt', archive: 'tar.gz' });
  });
});
