/** The universal flags (-e, -v, -s) on the older extraction and filter modules, and what they refuse. */
import { compileQuery } from '../planner';
import { parseQuery } from '../parser';
import { expectDistributedEqual, kept, linesToEntries, parseError, RANGE, strings } from './extraction.spec-helper';
import { patternPieces } from './grep';
import { searchModuleInfos } from './registry';

const LOGS = linesToEntries([
  'Mozilla/5.0 (Windows NT 10.0) user=ann path=a*b',
  'mozilla/4.0 (X11; Linux) user=bob',
  Buffer.from([0x01, 0x02, 0x03, 0x04, 0x20, 0x41]),
  'curl/8.0 user=cid path=/x',
]);

describe('grep flags', () => {
  it.each([
    ['grep Mozilla Linux', [0, 1]],
    ['grep -s Mozilla Windows', [0]], // all patterns
    ['grep -s mozilla Windows', []],
    ['grep -v Mozilla Linux', [2, 3]], // none of them
    ['grep -v -s Mozilla Linux', [2, 3]], // -v with -s: still none
    ['grep -i MOZILLA', [0, 1]],
    ['grep -i -v "USER=ANN"', [1, 2, 3]],
    ['grep "Moz*Windows"', [0]],
    ['grep "a*b"', [0, 1]], // wildcard: "a" then "b"
    ['grep -simple "a*b"', [0]], // literal star
    ['grep "a\\*b"', [0]], // escaped star
    ['grep "\\x01\\x02\\x03\\x04"', [2]], // bytes
    ['grep -e user ann', [0]],
    ['grep -v -e user ann', [1, 3]],
    ['grep -v -e missing ann', []], // an entry lacking the EV is dropped
  ])('%s', (q, lines) => {
    expect(kept(q.includes('-e user') ? `kv user | ${q}` : q, LOGS)).toEqual(lines);
  });

  it('splits patterns into byte pieces', () => {
    expect(patternPieces('a*b\\*c\\x41\\\\d\\q', false).map((b) => b.toString('latin1'))).toEqual(['a', 'b*cA\\d\\q']);
    expect(patternPieces('a*b', true).map(String)).toEqual(['a*b']);
  });

  it('pushes to storage only what storage can apply exactly or as a superset', () => {
    const pd = (q: string) => compileQuery(q, RANGE).pushdown.grep;
    expect(pd('grep -s a b')).toEqual([
      { pattern: 'a', invert: false },
      { pattern: 'b', invert: false },
    ]);
    expect(pd('grep a b')).toEqual([]);
    expect(pd('grep -i a')).toEqual([]);
    expect(pd('grep "\\x01"')).toEqual([]);
    expect(pd('grep -simple "a*b"')).toEqual([{ pattern: 'a*b', invert: false }]);
  });

  it.each([
    ['grep -w foo', 'ModuleError: grep: flag -w (word match; use the words module) is not supported'],
    ['grep -q foo', 'ModuleError: grep: unknown flag -q'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });
});

describe('words -v', () => {
  it.each([
    ['words -v Linux', [0, 2, 3]],
    ['words -v Linux curl', [0, 2]], // none of the words
    ['words -v -or Linux curl', [0, 2]],
    ['kv user | words -v -e user ann', [1, 3]],
  ])('%s', (q, lines) => {
    expect(kept(q, LOGS)).toEqual(lines);
  });
});

describe('regex -v and refused flags', () => {
  it.each([
    ['regex -v "user=(ann|bob)"', [2, 3]],
    ['regex -v "^curl"', [0, 1, 2]],
    ['kv user | regex -v -e user "^a"', [1, 3]],
  ])('%s', (q, lines) => {
    expect(kept(q, LOGS)).toEqual(lines);
  });

  it.each([
    ['regex -v "(?P<u>x)" u=="x"', 'ModuleError: regex: filters cannot be used with -v'],
    ['regex -v -p "x"', 'ModuleError: regex: -v and -p cannot be used together'],
    ['regex -r myregex', 'ModuleError: regex: flag -r (reading the expression from a resource) is not supported'],
    ['regex -a "(?P<d>\\d)"', 'ModuleError: regex: flag -a (array mode: every match into array values) is not supported'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });
});

describe('json -s and missing fields', () => {
  // the json page's "Empty Fields and the Strict Flag" example
  const D = linesToEntries(['{"A": "B", "FOO": ""}', '{"A": "Z"}']);
  it.each([
    ['json FOO!=""', [1]],
    ['json -s FOO', [0]],
    ['json FOO', [0, 1]],
    ['json -s FOO!=""', []],
    ['json FOO==""', [0]],
  ])('%s', (q, lines) => {
    expect(kept(q, D)).toEqual(lines);
  });
});

describe('fields -s -q -clean and index bases', () => {
  const D = linesToEntries(['a "b c" d', ' x  y ', 'one']);
  it('splits, keeps quoted delimiters with -q, trims (and unquotes with -q) with -clean', () => {
    expect(strings('fields -d " " [1] [2]', D, ['1', '2'])).toEqual([
      ['"b', 'c"'],
      ['x', ''],
      [undefined, undefined],
    ]);
    expect(strings('fields -d " " -q [1] [2]', D, ['1', '2'])).toEqual([
      ['"b c"', 'd'],
      ['x', ''],
      [undefined, undefined],
    ]);
    expect(strings('fields -d " " -q -clean [1]', D, ['1'])).toEqual([['b c'], ['x'], [undefined]]);
    expect(strings('fields -d "," -clean [0]', D, ['0'])).toEqual([['a "b c" d'], ['x  y'], ['one']]);
    expect(strings('fields -d " " [0x1] [01]', D, ['0x1', '01'])[0]).toEqual(['"b', '"b']);
  });

  it.each([
    ['fields -d " " -s [2]', [0, 1]],
    ['fields -d " " -q [2]!="d"', [1, 2]],
    ['fields -d " " [2]!="d"', [0, 1, 2]],
  ])('%s', (q, lines) => {
    expect(kept(q, D)).toEqual(lines);
  });

  it('rejects a quote in the delimiter with -q', () => {
    expect(parseError('fields -q -d "\\"" [0]')).toBe('ModuleError: fields: with -q the delimiter cannot contain a double quote');
  });
});

describe('registry', () => {
  it('lists every extraction and formatting module with a description and examples that parse', () => {
    const infos = searchModuleInfos();
    for (const n of ['csv', 'syslog', 'cef', 'xml', 'subnet', 'alias', 'length', 'upper', 'lower', 'require', 'src']) {
      const i = infos.find((x) => x.Name === n);
      expect(i).toMatchObject({ Name: n, Collapsing: false, Sorting: false, FrontendOnly: false });
      expect(i!.Info.length).toBeGreaterThan(20);
      expect(i!.Examples.length).toBeGreaterThan(0);
      for (const ex of i!.Examples) expect(() => parseQuery(ex)).not.toThrow();
    }
    expect(infos.find((x) => x.Name === 'grok')).toBeUndefined();
  });

  it('refuses grok with the reason', () => {
    expect(parseError('grok "%{COMBINEDAPACHELOG}"')).toBe(
      'ModuleError: grok: not supported (no well-kept grok pattern library with bounded matching exists for this service); use regex "(?P<name>...)" instead',
    );
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('grep -i -s mozilla user | kv user | table user', LOGS);
    expectDistributedEqual('words -v curl | count', LOGS);
  });
});
