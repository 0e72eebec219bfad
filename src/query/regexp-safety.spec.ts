import { enableLinearRegexpFallback, nonLinearConstruct } from './regexp-safety';

describe('user regular expressions', () => {
  it('refuses what RE2 refuses and V8 could only backtrack on, and nothing else', () => {
    expect(nonLinearConstruct('(a+)\\1')).toBe('backreference \\1');
    expect(nonLinearConstruct('(?<n>a)\\k<n>')).toBe('backreference \\k<...>');
    expect(nonLinearConstruct('a(?=b)')).toBe('lookahead (?=');
    expect(nonLinearConstruct('a(?!b)')).toBe('lookahead (?!');
    expect(nonLinearConstruct('(?<=a)b')).toBe('lookbehind (?<=');
    expect(nonLinearConstruct('(?<!a)b')).toBe('lookbehind (?<!');
    expect(nonLinearConstruct('a{1001}')).toBe('repetition count above 1000 ({1001})');
    expect(nonLinearConstruct('a{1,5000}')).toBe('repetition count above 1000 ({1,5000})');
    for (const ok of ['(?P<user>\\S+)', '(?<name>x)', '[(?=]\\\\1', '\\(?=', '[\\]1]', 'a{2,1000}', '\\d{3}', '(?:x|y)*', 'a{,5}']) {
      expect({ ok, found: nonLinearConstruct(ok) }).toEqual({ ok, found: undefined });
    }
  });

  it('lets V8 finish a catastrophic pattern in linear time once the fallback is on', () => {
    enableLinearRegexpFallback();
    const started = Date.now();
    expect(new RegExp('(?<x>(a+)+$)').test('a'.repeat(5000) + '!')).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
