import fc from 'fast-check';
import { expectDistributedEqual, kept, linesToEntries, parseError, strings } from './extraction.spec-helper';
import { KVOptions, parseKV } from './kv';

const DEF: KVOptions = { sep: '=', clean: true };
const pairs = (text: string, o: Partial<KVOptions> = {}) => [...parseKV(text, { ...DEF, ...o })];

describe('parseKV', () => {
  it('splits on whitespace, unquotes values, keeps the first occurrence, skips empty keys', () => {
    expect(pairs('a=1  b="x y"\tc= 3 a=2 =bad plain')).toEqual([
      ['a', '1'],
      ['b', 'x y'],
      ['c', '3'],
    ]);
  });

  it('cleans blanks around the separator (the page example), unless -noclean', () => {
    expect(pairs('x= 1 y = 2 z=3 foo    =  bar')).toEqual([
      ['x', '1'],
      ['y', '2'],
      ['z', '3'],
      ['foo', 'bar'],
    ]);
    expect(pairs('key=   value', { clean: false })).toEqual([['key', '   value']]);
  });

  it('uses other separators and delimiters: -sep, -d characters, -dall string', () => {
    expect(pairs('x:1|y:2|z:3|foo:bar', { sep: ':', delims: '|' })).toEqual([
      ['x', '1'],
      ['y', '2'],
      ['z', '3'],
      ['foo', 'bar'],
    ]);
    expect(pairs('x EQUALS 1 y EQUALS 2', { sep: 'EQUALS' })).toEqual([
      ['x', '1'],
      ['y', '2'],
    ]);
    expect(pairs('host:web1, port:80,,x', { sep: ':', delimAll: ', ' })).toEqual([
      ['host', 'web1'],
      ['port', '80,,x'],
    ]);
    // a quote among the delimiters turns quoting off
    expect(pairs('a="1" b=2', { delims: '" ' })).toEqual([
      ['a', ''],
      ['b', '2'],
    ]);
  });

  it('treats Unicode whitespace as a delimiter like /\\s/', () => {
    expect(pairs('a=1\u00a0b=2\u2003c=3')).toEqual([
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ]);
  });

  it('stops once every wanted key is found, with the same values (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', 'k', '=', ':', ',', ' ', '\t', '"', 'x', '\u00a0', 'é');
    const text = fc.array(alphabet, { maxLength: 60 }).map((cs) => cs.join(''));
    const opts = fc.record({ sep: fc.constantFrom('=', ':', '=='), clean: fc.boolean(), delimAll: fc.option(fc.constantFrom(',', ', ', ',,'), { nil: undefined }) });
    const wanted = fc.uniqueArray(fc.constantFrom('a', 'b', 'k', 'x', 'ab'), { minLength: 1 });
    fc.assert(
      fc.property(text, opts, wanted, (t, o, w) => {
        const full = parseKV(t, o);
        const early = parseKV(t, o, new Set(w));
        for (const k of w) expect(early.get(k)).toBe(full.get(k));
        for (const [k, v] of full) expect(t.includes(k) && t.includes(v)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is linear on hostile input', () => {
    const t = Date.now();
    parseKV('='.repeat(300_000), DEF);
    parseKV(' '.repeat(300_000) + '=', DEF);
    parseKV('a="'.repeat(100_000), DEF);
    parseKV(', '.repeat(100_000) + 'k:v', { sep: ':', delimAll: ', ', clean: true });
    expect(Date.now() - t).toBeLessThan(2000);
  });
});

describe('kv module', () => {
  const FORTI = linesToEntries([
    'date=2022-09-26 time=10:57:08 devname="fortigate" level="critical" logdesc="FortiGate update failed" msg="Fortigate scheduled update failed"',
    'date=2022-09-27 devname="fortigate" level="notice" msg="ok"',
    'x EQUALS 1 y EQUALS 2',
  ]);

  it('extracts the page examples', () => {
    expect(strings('kv -q devname level=="critical" logdesc msg', FORTI, ['devname', 'level', 'logdesc', 'msg'])).toEqual([
      ['fortigate', 'critical', 'FortiGate update failed', 'Fortigate scheduled update failed'],
    ]);
    expect(strings('kv -sep EQUALS y', FORTI, ['y'])[2]).toEqual(['2']);
  });

  it.each([
    ['kv time', [0, 1, 2]],
    ['kv -s time', [0]],
    ['kv -s devname msg', [0, 1]],
    ['kv level!="critical"', [1, 2]],
    ['kv -s level!="critical"', [1]],
  ])('filters: %s', (q, lines) => {
    expect(kept(q, FORTI)).toEqual(lines);
  });

  it('reads an enumerated value with -e', () => {
    expect(strings('kv msg | kv -e msg -sep " " -d "," Fortigate', FORTI, ['Fortigate'])).toEqual([['scheduled update failed'], [undefined], [undefined]]);
  });

  it.each([
    ['kv', 'ModuleError: kv: missing key argument'],
    ['kv -sep "" a', 'ModuleError: kv: separator and delimiters must not be empty'],
    ['kv -d "," -dall ", " a', 'ModuleError: kv: -d and -dall cannot be used together'],
    ['kv -x a', 'ModuleError: kv: unknown flag -x'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('kv -q level | count by level | table level count', FORTI);
  });
});
