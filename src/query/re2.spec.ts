/**
 * Issue 24, item 13: user regular expressions are RE2's syntax. Errors name the problem as RE2
 * does (Go regexp/syntax: "missing closing ]: [a-") with the offset in the user's pattern, in
 * every module that compiles one; what RE2 accepts runs with RE2's meaning.
 */
import fc from 'fast-check';
import { enableLinearRegexpFallback } from './regexp-safety';
import { compileUserRegex } from './modules/regex';
import { parseQuery } from './parser';
import { Re2SyntaxError, translateRe2 } from './re2';

function error(pattern: string): string {
  try {
    translateRe2(pattern);
  } catch (err) {
    if (err instanceof Re2SyntaxError) return err.message;
    throw err;
  }
  return 'accepted';
}

describe('RE2 syntax errors', () => {
  it.each([
    ['(?P<x>[a-', 'missing closing ]: [a- at offset 6 of the expression'],
    ['[a', 'missing closing ]: [a at offset 0 of the expression'],
    ['(abc', 'missing closing ): (abc at offset 0 of the expression'],
    ['a(b(c)', 'missing closing ): a(b(c) at offset 1 of the expression'],
    ['ab)', 'unexpected ): ab) at offset 2 of the expression'],
    ['[z-a]', 'invalid character class range: z-a at offset 1 of the expression'],
    ['[[:foo:]]', 'invalid character class range: [:foo:] at offset 1 of the expression'],
    ['a\\q', 'invalid escape sequence: \\q at offset 1 of the expression'],
    ['\\C', 'invalid escape sequence: \\C at offset 0 of the expression'],
    ['\\x{zz}', 'invalid escape sequence: \\x{zz} at offset 0 of the expression'],
    ['(a)\\1', 'invalid escape sequence: \\1 (a backreference; RE2 has none) at offset 3 of the expression'],
    ['ab\\', 'trailing backslash at end of expression at offset 2 of the expression'],
    ['*a', 'missing argument to repetition operator: * at offset 0 of the expression'],
    ['a|+', 'missing argument to repetition operator: + at offset 2 of the expression'],
    ['(*)', 'missing argument to repetition operator: * at offset 1 of the expression'],
    ['(??)', 'invalid or unsupported Perl syntax: (?? at offset 0 of the expression'],
    ['a**', 'invalid nested repetition operator: ** at offset 1 of the expression'],
    ['a+?{2}', 'invalid nested repetition operator: +?{2} at offset 1 of the expression'],
    ['a{1001}', 'invalid repeat count: {1001} at offset 1 of the expression'],
    ['a{5,2}', 'invalid repeat count: {5,2} at offset 1 of the expression'],
    ['(a{100}){11}', 'invalid repeat count: {11} at offset 8 of the expression'],
    ['a(?=b)', 'invalid or unsupported Perl syntax: (?= (a lookahead; RE2 has none) at offset 1 of the expression'],
    ['a(?!b)', 'invalid or unsupported Perl syntax: (?! (a lookahead; RE2 has none) at offset 1 of the expression'],
    ['(?<=a)b', 'invalid named capture: (?<=a)b (a lookbehind; RE2 has none) at offset 0 of the expression'],
    ['(?x)a', 'invalid or unsupported Perl syntax: (?x at offset 0 of the expression'],
    ['(?i', 'invalid or unsupported Perl syntax: (?i at offset 0 of the expression'],
    ['(?P<a-b>x)', 'invalid named capture: (?P<a-b> at offset 0 of the expression'],
    ['(?P<>x)', 'invalid named capture: (?P<> at offset 0 of the expression'],
    ['\\pL', 'Unicode character classes are not supported here: \\pL (use ranges such as [\\x{370}-\\x{3ff}]) at offset 0 of the expression'],
  ])('%s: %s', (pattern, message) => expect(error(pattern)).toBe(message));

  it('accepts what RE2 accepts, with its meaning', () => {
    const m = (pattern: string, text: string) => compileUserRegex(pattern).exec(text)?.[0] ?? null;
    expect(m('(?i)get /X', 'GET /x')).toBe('GET /x');
    expect(m('a(?i:b)c', 'aBc')).toBe('aBc');
    expect(m('a(?i:b)c', 'aBC')).toBeNull();
    expect(m('(?i)[a-c]+', 'xAbC')).toBe('AbC');
    expect(m('(?s)a.b', 'a\nb')).toBe('a\nb');
    expect(m('a.b', 'a\nb')).toBeNull();
    expect(m('a.b', 'a\rb')).toBe('a\rb'); // RE2's . is everything but \n
    expect(m('(?m)^b$', 'a\nb\nc')).toBe('b');
    expect(m('^b', 'a\nb')).toBeNull();
    expect(m('\\Aab\\z', 'ab')).toBe('ab');
    expect(m('\\s+', 'a\u00a0 \tb')).toBe(' \t'); // RE2's \s is [\t\n\f\r ]
    expect(m('[\\S]+', 'a\u00a0b c')).toBe('a\u00a0b');
    expect(m('[[:digit:]x]+', 'ab12x3c')).toBe('12x3');
    expect(m('\\Q.*\\E+', 'a.**')).toBe('.**');
    expect(m('\\x41\\x{42}\\101', 'ABA')).toBe('ABA');
    expect(m('a{,2}', 'a{,2}')).toBe('a{,2}'); // not a repetition: literal
    expect(m('(?U)a+', 'aaa')).toBe('a');
    expect(m('(?U)a+?', 'aaa')).toBe('aaa');
    expect(m('^*a', 'a')).toBe('a');
    expect(m('[]a]+', 'x]a]')).toBe(']a]');
    expect(m('\\d\\.\\-\\_', '1.-_')).toBe('1.-_');
    expect(compileUserRegex('(?P<user>\\w+)@(?<host>\\S+)').exec('bob@h1')?.groups).toEqual({ user: 'bob', host: 'h1' });
  });

  it('never leaves V8 an i or u flag, so catastrophic matches still end in linear time', () => {
    enableLinearRegexpFallback();
    const re = compileUserRegex('(?i)(a+)+$');
    expect(re.flags).toBe('');
    const started = Date.now();
    expect(re.test('A'.repeat(5000) + '!')).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('any pattern', () => {
  it('is an RE2 error or a JavaScript source V8 compiles without flags (property)', () => {
    const piece = fc.constantFrom(
      '(',
      ')',
      '(?',
      '(?P<n>',
      '(?i)',
      '(?m:',
      '(?s)',
      '(?U)',
      '[',
      ']',
      '[^',
      '[:alpha:]',
      '-',
      '^',
      '$',
      '.',
      '*',
      '+',
      '?',
      '{',
      '}',
      '{2}',
      '{1,3}',
      ',',
      '|',
      '\\',
      '\\d',
      '\\s',
      '\\x{41}',
      '\\Q',
      '\\E',
      '\\b',
      'a',
      'Z',
      'é',
      '😀',
      '\n',
      ':',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const pattern = pieces.join('');
        let source: string;
        try {
          source = translateRe2(pattern).source;
        } catch (err) {
          expect(err).toBeInstanceOf(Re2SyntaxError);
          return;
        }
        expect(() => new RegExp(source)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  it('is read in one pass, whatever it holds', () => {
    const started = Date.now();
    expect(() => translateRe2(`[${'[:'.repeat(200_000)}`)).toThrow(Re2SyntaxError);
    expect(() => translateRe2('(?P<a>x)'.repeat(20_000) + '(')).toThrow(Re2SyntaxError);
    // \Q quotes the rest: 49,999 literal "\Q", each written \\Q
    expect(translateRe2('\\Q'.repeat(50_000)).source.length).toBe(49_999 * 3);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('every module that compiles a user regular expression says it in RE2 terms', () => {
  it.each([
    ['tag=a regex "(?P<x>[a-"', 'ModuleError: regex: invalid regular expression: missing closing ]: [a- at offset 6 of the expression'],
    ['tag=a regex -v "a{2,1}"', 'ModuleError: regex: invalid regular expression: invalid repeat count: {2,1} at offset 1 of the expression'],
    ['tag=a eval match(x, "(a")', 'ModuleError: eval: match(): invalid regular expression: missing closing ): (a at offset 0 of the expression at offset 11'],
  ])('%s', (query, message) => expect(() => parseQuery(query)).toThrow(message));

  it('no message shows JavaScript syntax', () => {
    for (const q of ['tag=a regex "(?P<x>[a-"', 'tag=a regex "(?P<x>a)\\k<x>"', 'tag=a regex "(?P<x>(?i)a"', 'tag=a eval match(x, "[")']) {
      expect(() => parseQuery(q)).toThrow(expect.objectContaining({ message: expect.not.stringMatching(/Invalid regular expression: \/|Unterminated|\(\?<x>/) }));
    }
  });
});
