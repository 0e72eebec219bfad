import fc from 'fast-check';
import { unescapeBackslash, unescapeUrl } from './unescape';
import { expectDistributedEqual, linesToEntries, outEntries, parseError, values } from './extraction.spec-helper';

describe('unescape module', () => {
  it("unescapes the page's example into foo and leaves DATA as it was", () => {
    const raw = '\\"This string has\\n a lot of\\nweird escape characters \\u263a.\\"';
    const e = outEntries('alias DATA foo | unescape foo', linesToEntries([raw]))[0];
    expect(e.data.toString()).toBe(raw);
    expect((e.evs.get('foo') as Buffer).toString()).toBe('"This string has\n a lot of\nweird escape characters ☺."');
  });

  it.each([
    ['a\\tb\\\\c', 'a\tb\\c'],
    ['\\x41\\102\\U0001F600', 'AB😀'],
    ["\\a\\b\\f\\r\\v\\'", "\x07\b\f\r\v'"],
    ['\\q \\x4 \\uD800 \\777 end\\', '\\q \\x4 \\uD800 \\777 end\\'], // not escapes: left as written
  ])('unescapes the data (no arguments): %p', (input, out) => {
    expect(outEntries('unescape', linesToEntries([input]))[0].data.toString()).toBe(out);
  });

  it('gives bytes when the result is not UTF-8, text otherwise; -url decodes %XX and +', () => {
    expect(values('kv v | unescape v', linesToEntries(['v=\\xff\\x00', 'v=a\\tb']), ['v'])).toEqual([[Buffer.from([0xff, 0])], ['a\tb']]);
    expect(values('kv q | unescape -url q', linesToEntries(['q=a%20b+c%2x%E2%98%BA']), ['q'])).toEqual([['a b c%2x☺']]);
    expect(values('kv a b | unescape a b missing', linesToEntries(['a=\\n b=\\t']), ['a', 'b', 'missing'])).toEqual([['\n', '\t', undefined]]);
  });

  it('properties: text without a backslash (or % and +) is unchanged, the output is never longer than the input', () => {
    fc.assert(fc.property(fc.string(), (s) => s.includes('\\') || unescapeBackslash(Buffer.from(s)).toString() === s));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 500 }), (a) => unescapeBackslash(Buffer.from(a)).length <= a.length && unescapeUrl(Buffer.from(a)).length <= a.length));
    fc.assert(fc.property(fc.string(), (s) => unescapeUrl(Buffer.from(encodeURIComponent(s))).equals(Buffer.from(s))));
  });

  it('stays linear on a huge value made only of escapes', () => {
    const big = '\\n'.repeat(500_000);
    expect(outEntries('unescape', linesToEntries([big]))[0].data.length).toBe(500_000);
  });

  it.each([
    ['unescape -x', 'ModuleError: unescape: unknown flag -x'],
    ['unescape ""', 'ModuleError: unescape: enumerated value name must not be empty'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('unescape | count by DATA', linesToEntries(['a\\tb', 'c', 'a\\tb']));
  });
});
