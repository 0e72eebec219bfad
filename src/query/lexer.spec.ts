import { lex } from './lexer';
import { ParseError } from './types';
import { parseDuration, resolveTimeExpr, checkTimeExpr } from './time';

const values = (q: string) => lex(q).segments.map((s) => s.map((t) => t.value));

describe('lexer', () => {
  it('splits segments on pipes and tokens on whitespace and operators', () => {
    expect(values('tag=a,b* json foo=="bar" baz>3 | count by x')).toEqual([
      ['tag', '=', 'a,b*', 'json', 'foo', '==', 'bar', 'baz', '>', '3'],
      ['count', 'by', 'x'],
    ]);
  });

  it('recognises all filter operators', () => {
    expect(values('a==1 b!=2 c<3 d>4 e<=5 f>=6 g~7 h!~8')[0].filter((_, i) => i % 3 === 1)).toEqual(['==', '!=', '<', '>', '<=', '>=', '~', '!~']);
  });

  it('handles quotes, escapes and backticks', () => {
    const toks = lex('regex "a\\"b\\d\\t" `x|y\\d` "p|q"').segments;
    expect(toks).toHaveLength(1);
    expect(toks[0].map((t) => [t.kind, t.value])).toEqual([
      ['word', 'regex'],
      ['string', 'a"b\\d\t'],
      ['string', 'x|y\\d'],
      ['string', 'p|q'],
    ]);
  });

  it('emits parentheses as separate tokens', () => {
    expect(values('stats sum(x) as s')).toEqual([['stats', 'sum', '(', 'x', ')', 'as', 's']]);
  });

  it('strips /* */ and // comments', () => {
    const r = lex('tag=a /* c | d */ json x // trailing | count\n| count');
    expect(r.segments.map((s) => s.map((t) => t.value))).toEqual([['tag', '=', 'a', 'json', 'x'], ['count']]);
    expect(r.stripped).toBe('tag=a  json x \n| count');
  });

  it('keeps // inside a word (urls)', () => {
    expect(values('grep http://x/y')).toEqual([['grep', 'http://x/y']]);
  });

  it.each([
    ['json "abc', /unterminated quoted string/],
    ['json x | regex `abc', /unterminated backtick/],
    ['json x | grep a /* never closed', /unterminated comment/],
  ])('fails on %s', (q, re) => {
    expect(() => lex(q)).toThrow(re);
  });

  it('reports the segment index of a lexical error', () => {
    let err: unknown;
    try {
      lex('json x | kv y | grep "oops');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ParseError);
    expect((err as ParseError).moduleIndex).toBe(2);
  });
});

describe('durations and time expressions', () => {
  it.each([
    ['-10h', -36e9],
    ['90m', 5400e6],
    ['1h30m', 5400e6],
    ['250ms', 250e3],
    ['7us', 7],
    ['1d', 86400e6],
    ['2w', 14 * 86400e6],
    ['1y', 365 * 86400e6],
    ['1.5s', 1.5e6],
  ])('parses %s', (text, us) => expect(parseDuration(text)).toBe(us));

  it.each(['10', 'h', '10x', '-', '1h-2m', ''])('rejects %s', (t) => expect(parseDuration(t)).toBeNull());

  it('resolves relative, anchored and absolute times, rounded down to seconds', () => {
    const now = new Date('2024-01-01T12:00:00.750Z');
    expect(resolveTimeExpr('-10h', false, { now }).toISOString()).toBe('2024-01-01T02:00:00.000Z');
    expect(resolveTimeExpr('NOW', false, { now }).toISOString()).toBe('2024-01-01T12:00:00.000Z');
    expect(resolveTimeExpr('NOW-90m', false, { now }).toISOString()).toBe('2024-01-01T10:30:00.000Z');
    const start = new Date('2024-01-01T00:00:00Z');
    expect(resolveTimeExpr('START+1h', false, { now, start }).toISOString()).toBe('2024-01-01T01:00:00.000Z');
    expect(resolveTimeExpr('2024-02-03T04:05:06.9+01:00', true, { now }).toISOString()).toBe('2024-02-03T03:05:06.000Z');
  });

  it('validates time expressions', () => {
    expect(checkTimeExpr('-10h', false)).toBeNull();
    expect(checkTimeExpr('NOW-1h', false)).toBeNull();
    expect(checkTimeExpr('NOW-1q', false)).toMatch(/invalid duration/);
    expect(checkTimeExpr('-10q', false)).toMatch(/invalid duration/);
    expect(checkTimeExpr('2024-13-45', true)).toMatch(/invalid timestamp/);
  });
});
