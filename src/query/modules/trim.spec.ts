import fc from 'fast-check';
import { trimText } from './trim';
import { expectDistributedEqual, linesToEntries, outEntries, parseError, strings, values } from './extraction.spec-helper';

const LINES = ['amy has queried', 'cab fare', 'bad dad'];
const on = (q: string, lines: string[]) => strings(`alias DATA foo | ${q}`, linesToEntries(lines), ['foo']).map((r) => r[0]);

describe('trim modules', () => {
  it.each([
    ['trim foo "abcd"', ['my has querie', ' fare', ' ']],
    ['trimleft foo "abcd"', ['my has queried', ' fare', ' dad']],
    ['trimright foo "abcd"', ['amy has querie', 'cab fare', 'bad ']],
  ])("follow the page's examples: %s", (q, out) => {
    expect(on(q, LINES)).toEqual(out);
  });

  it('read the set from another EV with -e (the page: bar holds "abcd")', () => {
    const d = linesToEntries(LINES);
    expect(strings('alias DATA foo | eval bar="abcd" | trim -e bar foo', d, ['foo'])).toEqual([['my has querie'], [' fare'], [' ']]);
    // an entry lacking the -e value is left as it is
    expect(strings('alias DATA foo | trim -e nothere foo', d, ['foo'])).toEqual(LINES.map((l) => [l]));
  });

  it('trimprefix and trimsuffix remove only a whole prefix or suffix, as Go does', () => {
    const lines = ['Watch out! A rabid logbot!', 'Watch logbot dance!'];
    expect(on('trimprefix foo "Watch out!"', lines)).toEqual([' A rabid logbot!', 'Watch logbot dance!']);
    // the page shows "Watch out! A rabid": Go's TrimSuffix keeps the space before the suffix
    expect(on('trimsuffix foo "logbot!"', lines)).toEqual(['Watch out! A rabid ', 'Watch logbot dance!']);
  });

  it('trimspace removes Unicode white space at both ends only', () => {
    expect(on('trimspace foo', ['\n \t This EV has much whitespace  \u00a0 '])).toEqual(['This EV has much whitespace']);
  });

  it('DATA changes the entry data; bytes that are not UTF-8 change byte by byte; numbers as text', () => {
    expect(outEntries('trim DATA "ab"', linesToEntries(['abxba']))[0].data.toString()).toBe('x');
    expect(outEntries('trim DATA "\\t"', linesToEntries([Buffer.from([9, 0xff, 0x41, 9])]))[0].data).toEqual(Buffer.from([0xff, 0x41]));
    expect(values('json n | trimleft n "1"', linesToEntries(['{"n":1123}']), ['n'])).toEqual([['23']]);
  });

  it('properties: trimming is idempotent, never grows, and what is left does not start/end in the set', () => {
    const arb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\t', 'é', '😀', 'x') });
    fc.assert(
      fc.property(arb, fc.string({ unit: fc.constantFrom('a', 'b', ' ', '😀'), maxLength: 4 }), (s, set) => {
        for (const k of ['trim', 'trimleft', 'trimright', 'trimprefix', 'trimsuffix', 'trimspace'] as const) {
          const once = trimText(k, s, set);
          if (once.length > s.length) return false;
          if (k !== 'trimprefix' && k !== 'trimsuffix' && trimText(k, once, set) !== once) return false;
        }
        const t = [...trimText('trim', s, set)];
        return t.length === 0 || (!set.includes(t[0]) && !set.includes(t[t.length - 1]));
      }),
    );
  });

  it('stay bounded on a huge value', () => {
    const big = `${'a'.repeat(500_000)}x${'a'.repeat(500_000)}`;
    expect(on('trim foo "a"', [big])).toEqual(['x']);
  });

  it.each([
    ['trim', 'ModuleError: trim: missing enumerated value name, e.g. trim foo "abcd"'],
    ['trim foo', 'ModuleError: trim: missing set of characters after foo, e.g. trim foo "abcd"'],
    ['trimprefix foo', 'ModuleError: trimprefix: missing prefix after foo, e.g. trimprefix foo "Watch out!"'],
    ['trim foo "a" bar', 'ModuleError: trim: unexpected argument "bar"'],
    ['trim -e bar foo "a"', 'ModuleError: trim: unexpected argument "a"'],
    ['trimspace -e bar foo', 'ModuleError: trimspace: flag -e (trimspace has no set to read) is not supported'],
    ['trimspace foo bar', 'ModuleError: trimspace: unexpected argument "bar"'],
    ['trim -e "" foo', 'ModuleError: trim: the -e enumerated value name must not be empty'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merge across indexers like one indexer', () => {
    expectDistributedEqual('alias DATA foo | trim foo "abcd" | count by foo', linesToEntries([...LINES, ...LINES]));
  });
});
