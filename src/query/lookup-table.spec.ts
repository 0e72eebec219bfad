import { MessageChannel } from 'node:worker_threads';
import { decodeCell, LookupTable, LookupTableError, parseCsvTable, parseCsvTableAsync, tableFromRows, tableToCsv } from './lookup-table';
import { parseQuery } from './parser';
import { ParseError } from './types';

const rowsOf = (t: LookupTable): string[][] => Array.from({ length: t.rows }, (_, r) => t.columns.map((_c, c) => decodeCell(t, r * t.columns.length + c)));
const parse = (csv: string | Buffer, opts = {}) => parseCsvTable(typeof csv === 'string' ? Buffer.from(csv) : csv, opts);

function csvError(csv: string, opts = {}): string {
  try {
    parse(csv, opts);
  } catch (e) {
    if (e instanceof LookupTableError) return e.message;
    throw e;
  }
  throw new Error('parsed');
}

describe('parseCsvTable', () => {
  it('reads a header row and rows; LF or CRLF; skips empty lines; no final newline needed', () => {
    const t = parse('host,owner\r\nweb1,ann\r\n\r\nweb2,bob\nweb3,');
    expect(t.columns).toEqual(['host', 'owner']);
    expect(rowsOf(t)).toEqual([
      ['web1', 'ann'],
      ['web2', 'bob'],
      ['web3', ''],
    ]);
    expect(t.offsets.length).toBe(7);
  });

  it('handles quoting: commas, newlines, doubled quotes, UTF-8, a BOM, trimmed header names', () => {
    const t = parse(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(' a ,b\n"x, y","line1\nline2"\n"say ""hi""",é€\n')]));
    expect(t.columns).toEqual(['a', 'b']);
    expect(rowsOf(t)).toEqual([
      ['x, y', 'line1\nline2'],
      ['say "hi"', 'é€'],
    ]);
  });

  it('accepts a header without rows', () => {
    expect(parse('a,b\n')).toMatchObject({ columns: ['a', 'b'], rows: 0 });
  });

  it.each([
    ['', 'the CSV is empty (a header row is required)'],
    ['\n\n', 'the CSV is empty (a header row is required)'],
    ['a,a\n1,2\n', 'the header row names column "a" twice'],
    ['a,,c\n', 'column 2 of the header row has no name'],
    ['a,b\n1,2\n3\n', 'line 3 has 1 field, the header row has 2'],
    ['a,b\n1,2,3\n', 'line 2 has 3 fields, the header row has 2'],
    ['a,b\n"1,2\n', 'line 2: a quoted field is not closed'],
    ['a,b\n"1"x,2\n', 'line 2: unexpected character after a quoted field'],
  ])('refuses %j: %s', (csv, msg) => {
    expect(csvError(csv)).toBe(msg);
  });

  it('refuses input over maxBytes before parsing', () => {
    expect(csvError('a,b\n1,2\n', { maxBytes: 7 })).toBe('it is 8 bytes, more than the limit of 7 bytes');
    expect(parse('a,b\n1,2\n', { maxBytes: 8 }).rows).toBe(1);
  });

  it('parses asynchronously with the same result, letting the event loop run between slices', async () => {
    const csv = Buffer.from(`k,v\n${Array.from({ length: 300_000 }, (_, i) => `key${i},"v ""${i}"""`).join('\n')}\n`);
    expect(csv.length).toBeGreaterThan(3 << 20);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const t = await parseCsvTableAsync(csv);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(t.rows).toBe(300_000);
    expect(rowsOf(t).slice(-1)).toEqual([['key299999', 'v "299999"']]);
    expect(Buffer.from(t.bytes).equals(Buffer.from(parseCsvTable(csv).bytes))).toBe(true);
    await expect(parseCsvTableAsync(Buffer.from('a,a\n'))).rejects.toThrow('the header row names column "a" twice');
  });

  it('is backed by SharedArrayBuffers that cross to another thread without a copy', async () => {
    const t = parse('k,v\na,1\n');
    expect(t.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(t.offsets.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(parse('k,v\na,1\n', { shared: false }).bytes.buffer).toBeInstanceOf(ArrayBuffer);
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<LookupTable>((resolve) => port2.once('message', resolve));
    port1.postMessage(t);
    const copy = await received;
    port1.close();
    t.bytes[t.offsets[0]] = 'b'.charCodeAt(0); // the same memory: a write shows on the other side
    expect(decodeCell(copy, 0)).toBe('b');
  });
});

describe('tableFromRows and tableToCsv', () => {
  it('builds a table from string rows, bounded by maxBytes', () => {
    const t = tableFromRows(
      ['u', 'n'],
      [
        ['ann', '1'],
        ['bé', ''],
      ],
    );
    expect(rowsOf(t)).toEqual([
      ['ann', '1'],
      ['bé', ''],
    ]);
    expect(() => tableFromRows(['u'], [['abcd'], ['é']], { maxBytes: 5 })).toThrow(new LookupTableError('its table takes 6 bytes, more than the limit of 5 bytes'));
    expect(tableFromRows(['u'], [['abcd'], ['é']], { maxBytes: 6 }).rows).toBe(2);
  });

  it('writes CSV that reads back the same, quoting where needed', () => {
    const rows = [
      ['a,b', 'say "x"'],
      ['', ' lead'],
      ['multi\nline', 'plain'],
    ];
    const csv = tableToCsv(['k', 'v'], rows);
    expect(csv).toBe('k,v\n"a,b","say ""x"""\n," lead"\n"multi\nline",plain\n');
    expect(rowsOf(parse(csv))).toEqual(rows);
    // a lone empty cell must not read as an empty (skipped) line
    expect(rowsOf(parse(tableToCsv(['only'], [['x'], [''], ['y']])))).toEqual([['x'], [''], ['y']]);
  });
});

describe('table -save / -csv flags', () => {
  const err = (q: string) => {
    try {
      parseQuery(q);
    } catch (e) {
      if (e instanceof ParseError) return e.message;
      throw e;
    }
    return 'parsed';
  };

  it('reads -save <name> [-csv] [-format csv] before the columns', () => {
    const p = parseQuery('tag=a json ip mac | table -save ip2mac -csv ip mac');
    expect(p.renderer.instance.save).toBe('ip2mac');
    expect(p.renderer.instance.consumed).toEqual(['ip', 'mac']);
    expect(parseQuery('table -format csv -save "my table"').renderer.instance.save).toBe('my table');
    expect(parseQuery('table a').renderer.instance.save).toBeUndefined();
  });

  it.each([
    ['table -csv a', 'ModuleError: table: -csv needs -save <name>'],
    ['table -format csv a', 'ModuleError: table: -format needs -save <name>'],
    ['table -save', 'ModuleError: table: missing value for flag -save'],
    ['table -save a/b x', 'ModuleError: table: -save needs a resource name of 1 to 255 characters without control characters, "/" or "\\"'],
    ['table -save x -format lookupdata', 'ModuleError: table: -format lookupdata is not supported: tables are saved as CSV'],
    ['table -update ip -save x ip', 'ModuleError: table: -update is not supported (-save replaces the whole resource)'],
    ['table -delete ip -save x ip', 'ModuleError: table: -delete is not supported (-save replaces the whole resource)'],
  ])('%s -> %s', (q, msg) => {
    expect(err(q)).toBe(msg);
  });
});
