import fc from 'fast-check';
import { parseQuery } from '../parser';
import { entryCsvColumns } from '../renderers/entry-download';
import { concatValues } from './concat';
import { truncateValue } from './truncate';
import { expectDistributedEqual, linesToEntries, outEntries, parseError, run, strings, values } from './extraction.spec-helper';

describe('truncate module', () => {
  const d = linesToEntries(['{"IP":"10.0.0.1","Message":"a message longer than twenty characters"}', '{"Message":"short"}']);

  it("keeps the first N characters, as the page's examples (-ellipsis adds three dots to what it cut)", () => {
    expect(strings('json IP Message | truncate Message 20', d, ['Message'])).toEqual([['a message longer tha'], ['short']]);
    expect(strings('json Message as Name | truncate -ellipsis Name 10', d, ['Name'])).toEqual([['a message ...'], ['short']]);
  });

  it('counts UTF-8 characters, or bytes with -binary; numbers are left alone; several values and DATA', () => {
    const u = linesToEntries(['{"s":"héllo😀x","n":123456}']);
    expect(values('json s n | truncate s n 6', u, ['s', 'n'])).toEqual([['héllo😀', 123456]]);
    expect(values('json s | truncate -binary s 2', u, ['s'])).toEqual([[Buffer.from('h\xc3', 'latin1')]]);
    expect(outEntries('truncate DATA 3', linesToEntries([Buffer.from('héllo')]))[0].data.toString()).toBe('hél');
    expect(outEntries('truncate -binary DATA 2', linesToEntries([Buffer.from([1, 2, 3])]))[0].data).toEqual(Buffer.from([1, 2]));
    expect(outEntries('truncate DATA 0', linesToEntries(['abc']))[0].data.toString()).toBe('');
  });

  it('bounds every value it cuts (property): at most N characters, plus three with -ellipsis, and a prefix of the original', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 0, max: 70 }), fc.boolean(), (s, n, ell) => {
        const out = truncateValue(s, n, false, ell);
        if (out === undefined) return [...s].length <= n;
        const t = out as string;
        const body = ell ? t.slice(0, -3) : t;
        return [...body].length === n && s.startsWith(body);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.integer({ min: 0, max: 90 }), fc.boolean(), (a, n, bin) => {
        const out = truncateValue(Buffer.from(a), n, bin, false);
        return (
          out === undefined ||
          ((out as Buffer).length <= (bin ? n : 4 * n) &&
            Buffer.from(a)
              .subarray(0, (out as Buffer).length)
              .equals(out as Buffer))
        );
      }),
    );
  });

  it.each([
    ['truncate Message', 'ModuleError: truncate: needs enumerated value names and a length, e.g. truncate Message 20'],
    ['truncate Message x', 'ModuleError: truncate: the length must be a whole number, not "x"'],
    ['truncate Message -1', 'ModuleError: truncate: the length must be between 0 and 1000000000, not -1'],
    ['truncate Message 99999999999', 'ModuleError: truncate: the length must be between 0 and 1000000000, not 99999999999'],
    ['truncate -e Message 1', 'ModuleError: truncate: unknown flag -e'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });
});

describe('concat module', () => {
  it("joins the page's example with a separator into the name after as; without as into the first", () => {
    const d = linesToEntries(['10.0.0.1,80', '10.0.0.2,443']);
    expect(strings('fields [0] as ip [1] as port | concat -s ":" ip port as dialstring', d, ['ip', 'port', 'dialstring'])).toEqual([
      ['10.0.0.1', '80', '10.0.0.1:80'],
      ['10.0.0.2', '443', '10.0.0.2:443'],
    ]);
    expect(strings('fields [0] as ip [1] as port | concat ip port', d, ['ip'])).toEqual([['10.0.0.180'], ['10.0.0.2443']]);
    expect(strings('json a b c | concat -s " - " a b c as x', linesToEntries(['{"a":1,"b":true,"c":"z"}']), ['x'])).toEqual([['1 - true - z']]);
  });

  it('keeps bytes as bytes (no separator) and gives no output when a value is missing', () => {
    const d = linesToEntries(['ab']);
    expect(values('hexlify DATA as h | hexlify -d h as b1 | hexlify -d h as b2 | concat -s : b1 b2 as x', d, ['x'])).toEqual([[Buffer.from('abab')]]);
    expect(strings('kv a b | concat -s : a b as x', linesToEntries(['a=1']), ['x'])).toEqual([[undefined]]);
  });

  it('builds at most 16 MiB for an entry (a huge value named many times gets no output and a warning)', () => {
    const d = linesToEntries([`v=${'x'.repeat(1_000_000)}`]);
    const r = run(`kv v | concat ${'v '.repeat(20)} as c`, d);
    expect(r.kind === 'entries' && r.Entries[0].evs.has('c')).toBe(false);
    expect(r.Warnings).toEqual(['concat: the value for an entry would pass 16 MiB; such entries get no output']);
    expect((values(`kv v | concat ${'v '.repeat(10)} as c`, d, ['c'])[0][0] as string).length).toBe(10_000_000);
  });

  it('property: split on the separator gives back the values when none contains it', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'é', ' ') }), { minLength: 2, maxLength: 6 }), (parts) => {
        return (concatValues(parts, ':') as string).split(':').every((p, i) => p === parts[i]);
      }),
    );
  });

  it.each([
    ['concat a', 'ModuleError: concat: needs two or more enumerated values, e.g. concat -s : Dst DstPort as dialstring'],
    ['concat a b as', 'ModuleError: concat: missing name after "as"'],
    ['concat a b as x y', 'ModuleError: concat: unexpected argument "y"'],
    ['concat -s', 'ModuleError: concat: missing value for flag -s'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });
});

describe('abs module', () => {
  const d = linesToEntries(['{"offset":-5}', '{"offset":2.5}', '{"offset":"-7"}', '{"offset":"x"}', '{}']);

  it("overwrites the value, or writes the name after as and leaves the original (the page's examples)", () => {
    expect(values('json offset | abs offset', d, ['offset'])).toEqual([[5], [2.5], [7], ['x'], [undefined]]);
    expect(values('json offset | abs offset as offsetAbsolute', d, ['offset', 'offsetAbsolute'])).toEqual([
      [-5, 5],
      [2.5, 2.5],
      ['-7', 7],
      ['x', undefined],
      [undefined, undefined],
    ]);
  });

  it('feeds the math modules (sum of absolute values)', () => {
    const r = outEntries('json offset | abs offset as a | sum a', d);
    expect(r[0].evs.get('sum')).toBe(14.5);
  });

  it.each([
    ['abs', 'ModuleError: abs: missing enumerated value name, e.g. abs offset'],
    ['abs a as', 'ModuleError: abs: missing name after "as"'],
    ['abs -v a', 'ModuleError: abs: unknown flag -v'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });
});

describe('keep module', () => {
  it("removes every EV but the named ones, never drops entries (the page's example)", () => {
    const d = linesToEntries(['{"fruit":"banana,apple","vegetables":"broccoli,potato"}', '{}']);
    const q = 'json fruit vegetables | fields -e fruit [0] as bananas [1] as apples | fields -e vegetables [0] as broccoli [1] as potatoes | keep bananas potatoes';
    const out = outEntries(q, d);
    expect(out.map((e) => [...e.evs.keys()].sort())).toEqual([['bananas', 'potatoes'], []]);
    expect(out.map((e) => e.data.length > 0)).toEqual([true, true]);
  });

  it('leaves the removed EVs out of the columns of a CSV download', () => {
    expect(entryCsvColumns(parseQuery('json a b c | keep a c missing | printf -e p "%s" a'))).toEqual(['a', 'c', 'p']);
    expect(entryCsvColumns(parseQuery('json a b c'))).toEqual(['a', 'b', 'c']);
  });

  it('rejects a call without names', () => {
    expect(parseError('keep')).toBe('ModuleError: keep: missing enumerated value name, e.g. keep foo bar');
  });
});

it('truncate, concat, abs and keep merge across indexers like one indexer', () => {
  const d = linesToEntries(['{"a":-1,"b":"xyzzy"}', '{"a":2,"b":"xy"}', '{"a":-1,"b":"xyzzy"}']);
  expectDistributedEqual('json a b | abs a | truncate b 3 | concat -s / a b as c | keep c | count by c', d);
});
