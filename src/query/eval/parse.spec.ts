import { lex } from '../lexer';
import { parseQuery } from '../parser';
import { ParseError } from '../types';
import { compile, run, value } from './eval.spec-helper';

const parseError = (q: string): { message: string; index: number } => {
  try {
    parseQuery(q);
  } catch (err) {
    if (err instanceof ParseError) return { message: err.message, index: err.moduleIndex };
    throw err;
  }
  throw new Error(`no error for ${q}`);
};

describe('eval: code fragments in the query', () => {
  const segs = (q: string) => lex(q).segments.map((s) => s.map((t) => [t.kind, t.value]));

  it('keeps || and | inside brackets in the program; a lone | outside ends it', () => {
    expect(segs('tag=a json x | eval x > 1 || y == "a|b" | count')).toEqual([
      [
        ['word', 'tag'],
        ['op', '='],
        ['word', 'a'],
        ['word', 'json'],
        ['word', 'x'],
      ],
      [
        ['word', 'eval'],
        ['fragment', ' x > 1 || y == "a|b" '],
      ],
      [['word', 'count']],
    ]);
    expect(segs('eval z = (x | y); w = {x|y}[0] | table')).toEqual([
      [
        ['word', 'eval'],
        ['fragment', ' z = (x | y); w = {x|y}[0] '],
      ],
      [['word', 'table']],
    ]);
    expect(segs('tag=a (x > 1) | table')).toEqual([
      [
        ['word', 'tag'],
        ['op', '='],
        ['word', 'a'],
        ['fragment', '(x > 1) '],
      ],
      [['word', 'table']],
    ]);
  });

  it('does not take eval or ( elsewhere: arguments, tag values, longer words', () => {
    expect(segs('json eval | evaluate x | stats sum(x)')).toEqual([
      [
        ['word', 'json'],
        ['word', 'eval'],
      ],
      [
        ['word', 'evaluate'],
        ['word', 'x'],
      ],
      [
        ['word', 'stats'],
        ['word', 'sum'],
        ['lparen', '('],
        ['word', 'x'],
        ['rparen', ')'],
      ],
    ]);
    expect(segs('tag=eval count')[0][2]).toEqual(['word', 'eval']);
  });

  it('skips strings, $( ) names and comments when looking for the end; comments leave the parsed query', () => {
    const p = parseQuery('tag=a eval x = "|" + `|`; /* | */ y = $(odd | name); // | z\n| table x y');
    expect(p.modules.map((m) => m.name)).toEqual(['eval']);
    expect(p.parsedQuery).toBe('tag=a eval x = "|" + `|`;  y = $(odd | name); \n| table x y');
    expect(p.modules[0].instance.produced).toEqual(['x', 'y']);
    expect(p.modules[0].instance.consumed).toEqual(['odd | name']);
  });

  it('a bare ( expr ) module is eval', () => {
    const p = parseQuery('tag=a json x | (x > 1 || x < -1) | count');
    expect(p.modules.map((m) => m.name)).toEqual(['json', 'eval', 'count']);
    expect(p.modules[1].instance.consumed).toEqual(['x']);
  });

  it('reports unterminated strings and comments of a fragment as syntax errors', () => {
    expect(parseError('tag=a eval x = "abc | table')).toEqual({ message: 'SyntaxError: unterminated quoted string starting at offset 15', index: 0 });
    expect(parseError('tag=a json x | eval /* x | table')).toEqual({ message: 'SyntaxError: unterminated comment starting at offset 20', index: 1 });
  });
});

describe('eval: operator precedence (C, as the product grammar gives it)', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['2 * 3 % 4', 2],
    ['-2 * 3', -6],
    ['1 << 2 + 1', 8],
    ['1 + 2 << 1', 6],
    ['6 & 3 == 3', undefined], // 6 & (3 == 3): a bool is no operand of &
    ['(6 & 3) == 2', true],
    ['5 ^ 1 & 3', 4],
    ['(1 | 2 ^ 3)', 1],
    ['1 < 2 == true', true],
    ['true || false && false', true],
    ['(true || false) && false', false],
    ['!false && false', false],
    ['!(1 > 2)', true],
    ['1 > 2 ? "a" : "b"', 'b'],
    ['true ? 1 + 1 : 0', 2],
    ['false ? 1 : true ? 2 : 3', 2],
    ['false ? 1 : false ? 2 : 3', 3],
    ['true ? false ? 1 : 2 : 3', 2],
    ['"ab" + "c" ~ "bc"', true],
    ['3 > 2 > 1', false],
  ])('%s = %p', (expr, want) => {
    expect(value(expr)).toBe(want);
  });

  it('&& and || short-circuit', () => {
    expect(run('ok = false && set_data("x") == 1; ok2 = true || set_data("y");').entry.data.toString()).toBe('hello world');
  });
});

describe('eval: program forms', () => {
  it('one expression filters; a parenthesised one too; assignments and statements do not', () => {
    expect(run('n > 5', { n: 6 }).keep).toBe(true);
    expect(run('n > 5', { n: 5 }).keep).toBe(false);
    expect(run('( n > 5 )', { n: 4 }).keep).toBe(false);
    expect(run('n', { n: 0 }).keep).toBe(false); // the zero value drops
    expect(run('n', { n: 'x' }).keep).toBe(true);
    expect(run('x = n > 5', { n: 1 })).toMatchObject({ keep: true, evs: { n: 1, x: false } });
    expect(run('( x = 1; y = 2; )').evs).toEqual({ x: 1, y: 2 });
    expect(run('n > 5;', { n: 1 }).keep).toBe(true);
  });

  it('return decides for statement programs', () => {
    const p = 'if (n > 5) { return true; } return false;';
    expect(run(p, { n: 6 }).keep).toBe(true);
    expect(run(p, { n: 1 }).keep).toBe(false);
    expect(run('x = 1; return x == 2; x = 3;').evs.x).toBe(1);
  });

  it('parses the examples of the product page', () => {
    const taylor = `
      // Taylor series of eᶻ is ∑zⁿ/n! from 0 to ∞
      z = 5.0; ez = 0.0;
      for (i = 0; i < 20; i++) {
          n = math_pow(z,i);
          if (n == 0 || n == 1) { d = 1; } else { d = 1; for (j = 2; j <= i; j++) { d = d*j; } }
          zn = n/d;
          ez = ez + zn;
      }
      result = printf("e⁵ == %.4f", ez);`;
    expect(run(taylor).evs.result).toBe('e⁵ == 148.4131');
    const counts = compile(`
      map appnames;
      if (has_key(appnames, Appname))
          appnames[Appname] = appnames[Appname] + 1;
      else
          appnames[Appname] = 1;
      seen = appnames[Appname];`);
    const seen = ['a', 'b', 'a', 'a'].map((Appname) => {
      const e = { ts: 0, tag: 0, src: '', data: Buffer.alloc(0), evs: new Map([['Appname', Appname]]) };
      counts.run(e, { tagName: String, rangeEnd: 0 } as never);
      return e.evs.get('seen');
    });
    expect(seen).toEqual([1, 1, 2, 3]);
    expect(run('ϕr1 = -0.5; Ileg = math_sqrt(math_pow(ϕr1 * 2, 2));').evs).toEqual({ ϕr1: -0.5, Ileg: 1 });
    expect(run('switch (int(foo)) { case 1: output = "started at the first case"; case 2: output = output + " and continued"; }', { foo: '1' }).evs.output).toBe(
      'started at the first case and continued',
    );
  });
});

describe('eval: parse errors name the problem', () => {
  it.each([
    ['tag=a eval', 'ModuleError: eval: missing program'],
    ['tag=a eval x = ', 'ModuleError: eval: unexpected the end of the program at offset 15'],
    ['tag=a eval x = mac(y)', 'ModuleError: eval: the mac() cast is not supported at offset 15'],
    ['tag=a eval x = location(y)', 'ModuleError: eval: the location() cast is not supported at offset 15'],
    ['tag=a eval log("x")', 'ModuleError: eval: log() (logging to the gravwell tag) is not supported at offset 11'],
    ['tag=a eval x = nope(1)', 'ModuleError: eval: unknown function nope() at offset 15'],
    ['tag=a eval x = toIP("1.2.3.4")', 'ModuleError: eval: unknown function toIP() at offset 15'],
    ['tag=a eval x = a.b', 'ModuleError: eval: the "." scope operator is not supported at offset 16'],
    ['tag=a eval ++x', 'ModuleError: eval: prefix ++ is not supported (write x++) at offset 11'],
    ['tag=a eval while (x) { y = 1; }', 'ModuleError: eval: while loops are not supported (use for) at offset 11'],
    ['tag=a eval x = 1; var y;', 'ModuleError: eval: var declarations must come before the other statements at offset 18'],
    ['tag=a eval map m; m = 1;', 'ModuleError: eval: cannot assign to map m (assign to m[key]) at offset 18'],
    ['tag=a eval map m; x = m;', 'ModuleError: eval: map m can only be indexed (m[key]) or passed to len, keys or has_key at offset 22'],
    ['tag=a eval var a; map a;', 'ModuleError: eval: a is declared twice at offset 22'],
    ['tag=a eval break;', 'ModuleError: eval: break outside a for loop or switch at offset 11'],
    ['tag=a eval continue;', 'ModuleError: eval: continue outside a for loop at offset 11'],
    ['tag=a eval return;', 'ModuleError: eval: return needs an expression (return true; or return false;) at offset 11'],
    ['tag=a eval if x > 1 { y = 1; }', 'ModuleError: eval: expected "(" after if, found "x" at offset 14'],
    ['tag=a eval if (x) { y = 1;', 'ModuleError: eval: missing "}" at offset 26'],
    ['tag=a eval x = 1 y = 2', 'ModuleError: eval: expected ";" after a statement, found "y" at offset 17'],
    ['tag=a eval 1 = x', 'ModuleError: eval: can only assign to a variable or an indexed variable at offset 11'],
    ['tag=a eval x = len(1, 2)', 'ModuleError: eval: len() takes 1 argument, got 2 at offset 15'],
    ['tag=a eval x = strings_replace("a")', 'ModuleError: eval: strings_replace() takes 4 arguments, got 1 at offset 15'],
    ['tag=a eval x = in(1)', 'ModuleError: eval: in() takes at least 2 arguments, got 1 at offset 15'],
    ['tag=a eval x = has_key(y, "k")', 'ModuleError: eval: the first argument must be a map declared with "map name;" at offset 23'],
    ['tag=a eval match(x, "(a")', 'ModuleError: eval: match(): invalid regular expression: missing closing ): (a at offset 0 of the expression at offset 11'],
    [
      'tag=a eval match(x, "(a)\\\\1")',
      'ModuleError: eval: match(): invalid regular expression: invalid escape sequence: \\1 (a backreference; RE2 has none) at offset 3 of the expression at offset 11',
    ],
    ['tag=a eval switch (x) { default: y = 1; case 1: y = 2; }', 'ModuleError: eval: default must be the last case of a switch at offset 40'],
    ['tag=a eval switch (x) { y = 1; }', 'ModuleError: eval: expected case or default, found "y" at offset 24'],
    ['tag=a eval x = 1 ? 2', 'ModuleError: eval: expected ":" in a ?: expression, found the end of the program at offset 20'],
    ['tag=a eval case 1: x = 1;', 'ModuleError: eval: case outside a switch at offset 11'],
    ['tag=a eval else { x = 1; }', 'ModuleError: eval: else without if at offset 11'],
    ['tag=a eval x = if', 'ModuleError: eval: unexpected keyword "if" at offset 15'],
    ['tag=a eval x = 12ab', 'ModuleError: eval: invalid number "12a" at offset 15'],
    ['tag=a eval x = #', 'ModuleError: eval: unexpected character "#" at offset 15'],
    ['tag=a eval x = "a', 'SyntaxError: unterminated quoted string starting at offset 15'],
    ['tag=a eval x = $(abc', 'SyntaxError: unterminated $( ) starting at offset 15'],
  ])('%s', (q, message) => {
    expect(parseError(q).message).toBe(message);
  });

  it('points at the eval module', () => {
    expect(parseError('tag=a json x | eval x +').index).toBe(1);
    expect(parseError('tag=a json x | (x + ) | table').index).toBe(1);
  });

  it('refuses programs nested too deeply instead of exhausting the stack', () => {
    expect(parseError(`tag=a eval x = ${Array(20_000).fill('1').join(' + ')}`).message).toMatch(/^ModuleError: eval: expression nested more than 500 operators deep/);
    expect(parseError(`tag=a eval x = y${'[0]'.repeat(20_000)}`).message).toMatch(/^ModuleError: eval: expression nested more than 500 operators deep/);
    expect(run(`x = ${Array(400).fill('1').join(' + ')};`).evs.x).toBe(400);
    expect(parseError(`tag=a eval x = ${'('.repeat(500)}1${')'.repeat(500)}`).message).toMatch(/^ModuleError: eval: program nested more than 200 levels deep/);
  });
});
