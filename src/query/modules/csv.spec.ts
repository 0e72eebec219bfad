import { csvColumns } from './csv';
import { expectDistributedEqual, kept, linesToEntries, parseError, strings } from './extraction.spec-helper';

// The product page's example record: padded columns, a quoted column holding commas and a newline.
const PAGE =
  '2018-11-01T12:46:01.764386-06:00,daffodil, 15554,9870f7cd-b7d3-4bb6-8160-f5f146ebc764 , "OK, what sort of language would we have the world speak?\nIsabella", "CL", Lucien';
const DATA = linesToEntries([PAGE, 'alice,GET,/index.html,200', 'bob,POST,"/login?a=1,b=2",403', 'carol,"say ""hi""",x', 'short']);

describe('csvColumns', () => {
  it('trims blanks and quotes, keeps commas and newlines inside quotes', () => {
    expect(csvColumns(PAGE, 100)).toEqual([
      '2018-11-01T12:46:01.764386-06:00',
      'daffodil',
      '15554',
      '9870f7cd-b7d3-4bb6-8160-f5f146ebc764',
      'OK, what sort of language would we have the world speak?\nIsabella',
      'CL',
      'Lucien',
    ]);
  });

  it('reads "" as a quote, keeps blanks inside quotes, a stray quote in an unquoted column, empty columns', () => {
    expect(csvColumns('a,"x ""y"" z"  ,  " pad ",b"c,,', 100)).toEqual(['a', 'x "y" z', ' pad ', 'b"c', '', '']);
    expect(csvColumns('', 3)).toEqual(['']);
    expect(csvColumns('"unterminated, still one', 3)).toEqual(['unterminated, still one']);
  });

  it('stops after the last column asked for', () => {
    expect(csvColumns('a,b,c,d,e', 1)).toEqual(['a', 'b']);
  });

  it('is linear on hostile input (a million quotes and commas)', () => {
    const big = '"'.repeat(500_000) + ','.repeat(500_000);
    const t = Date.now();
    csvColumns(big, 1_000_000);
    expect(Date.now() - t).toBeLessThan(2000);
  });
});

describe('csv module', () => {
  it('extracts the page example: csv [2] [3] [4]', () => {
    expect(strings('csv [2] [3] [4]', DATA, ['2', '3', '4'])[0]).toEqual([
      '15554',
      '9870f7cd-b7d3-4bb6-8160-f5f146ebc764',
      'OK, what sort of language would we have the world speak?\nIsabella',
    ]);
  });

  it('names columns by the index text (base 10, 8, 16) or by as', () => {
    expect(strings('csv [0x2] as path [01] [0]', DATA, ['path', '01', '0'])).toEqual([
      ['15554', 'daffodil', '2018-11-01T12:46:01.764386-06:00'],
      ['/index.html', 'GET', 'alice'],
      ['/login?a=1,b=2', 'POST', 'bob'],
      ['x', 'say "hi"', 'carol'],
      [undefined, undefined, 'short'],
    ]);
    expect(strings('csv [010]', linesToEntries(['0,1,2,3,4,5,6,7,eight']), ['010'])).toEqual([['eight']]);
  });

  it.each([
    ['csv [1]=="GET"', [1]],
    ['csv [1] == GET', [1]],
    ['csv [1]!="GET"', [0, 2, 3, 4]], // != keeps entries lacking the column
    ['csv [2]~login', [2]],
    ['csv [2]!~login', [0, 1, 3, 4]],
    ['csv [0]!="short" [1]~"O"', [2]],
    ['csv -s [2]', [0, 1, 2, 3]],
    ['csv -s [3]!="200"', [0, 2]],
  ])('filters: %s', (q, lines) => {
    expect(kept(q, DATA)).toEqual(lines);
  });

  it('reads an enumerated value with -e', () => {
    const d = linesToEntries(['GET /x?DATA=a,b,c HTTP/1.1', 'GET /y HTTP/1.1']);
    expect(strings('regex "DATA=(?P<p>\\S+)" | csv -e p [0] [2]', d, ['0', '2'])).toEqual([['a', 'c']]);
    expect(strings('csv -e missing [0]', d, ['0'])).toEqual([[undefined], [undefined]]);
  });

  it.each([
    ['csv', 'ModuleError: csv: missing column index argument'],
    ['csv [a]', 'ModuleError: csv: invalid column index "[a]" (expected [N], [0xN] or [0N])'],
    ['csv [08]', 'ModuleError: csv: invalid column index "[08]" (expected [N], [0xN] or [0N])'],
    ['csv [99999999]', 'ModuleError: csv: column index "[99999999]" is too large'],
    ['csv [1]>3', 'ModuleError: csv: operator > is not supported on [1] (supported: == != ~ !~)'],
    ['csv -d ";" [1]', 'ModuleError: csv: unknown flag -d'],
    ['csv -e', 'ModuleError: csv: missing value for flag -e'],
    ['csv [1] as', 'ModuleError: csv: missing name after "as"'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('csv [0] [1] | count by 1 | table 1 count', DATA);
    expectDistributedEqual('csv -s [2] as p | table p', DATA);
  });
});
