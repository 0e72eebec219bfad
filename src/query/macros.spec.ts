import { AppError } from '../common/errors/app-error';
import { describeQuery } from './describe';
import { ALL, RANGE } from './fixtures.spec-helper';
import { attributeParseError, expandMacros, hasMacroCall, MACRO_MAX_EXPANDED_CHARS, macroArity, MacroResolver, segmentsOf } from './macros';
import { runQueryInMemory } from './memory';
import { ParseError } from './types';

/** A resolver over a fixed table, counting its look-ups. */
function table(defs: Record<string, string>): MacroResolver & { lookups: number } {
  const r = async (names: string[]) => {
    r.lookups++;
    return new Map(names.filter((n) => n in defs).map((n) => [n, defs[n]]));
  };
  r.lookups = 0;
  return r;
}

const expand = async (q: string, defs: Record<string, string>) => (await expandMacros(q, table(defs))).query;

async function refusal(q: string, defs: Record<string, string>): Promise<string> {
  const started = Date.now();
  try {
    await expandMacros(q, table(defs));
  } catch (e) {
    expect(Date.now() - started).toBeLessThan(1000);
    return `${(e as AppError).status} ${(e as AppError).code} ${(e as AppError).message}`;
  }
  throw new Error(`expanded: ${q}`);
}

const DEFS = {
  SYSLOG: 'tag=syslog',
  APP: 'tag=app',
  JSONF: 'json %%1%%',
  GREPN: 'grep %%1%% | grep %%2%%',
  COUNTBY: 'count by %%1%% | table %%1%% count',
  NESTED: '$APP $JSONF(user) | $COUNTBY(user)',
  EMPTY: '',
  'A-1_B': 'grep x',
};

describe('macro expansion', () => {
  it.each([
    ['$SYSLOG grep foo', 'tag=syslog grep foo'],
    ['$APP $JSONF(user) | table', 'tag=app json user | table'],
    ['$APP $GREPN(a, "b, c")', 'tag=app grep a | grep b, c'],
    ['$APP grep "$SYSLOG" /* $NOPE */ // $NOPE2', 'tag=app grep "$SYSLOG" /* $NOPE */ // $NOPE2'],
    ['$NESTED', 'tag=app json user | count by user | table user count'],
    ['tag=x grep $lower', 'tag=x grep $lower'],
    ['$APP $EMPTY() grep x', 'tag=app  grep x'],
    ['$A-1_B', 'grep x'],
    ['$APP $JSONF((a,b))', 'tag=app json (a,b)'],
  ])('%s -> %s', async (q, want) => {
    expect(await expand(q, DEFS)).toBe(want);
  });

  it('a query without a call is not looked up at all; each nesting level is one look-up', async () => {
    const r = table(DEFS);
    expect((await expandMacros('tag=x grep "a$B" | eval $x', r)).query).toBe('tag=x grep "a$B" | eval $x');
    expect(r.lookups).toBe(0);
    await expandMacros('$NESTED', r);
    expect(r.lookups).toBe(2);
    expect(hasMacroCall('grep `$A`')).toBe(false);
    expect(macroArity('a %%2%% %%1%% %%2%%')).toBe(2);
  });

  it('a query with macros gives the same description and the same results as the query written out by hand', async () => {
    const cases: Array<[string, string]> = [
      ['$APP $JSONF(user) | $COUNTBY(user)', 'tag=app json user | count by user | table user count'],
      ['$NESTED', 'tag=app json user | count by user | table user count'],
      ['$SYSLOG $GREPN(a, b) | count', 'tag=syslog grep a | grep b | count'],
    ];
    for (const [withMacros, byHand] of cases) {
      const expanded = await expand(withMacros, DEFS);
      expect(describeQuery(expanded)).toEqual(describeQuery(byHand));
      expect(runQueryInMemory(expanded, ALL, { ...RANGE }).result).toEqual(runQueryInMemory(byHand, ALL, { ...RANGE }).result);
    }
  });

  it('refuses loops, unknown macros, wrong argument counts, deep nesting, huge expansions and argument floods with a 400 that names the macro', async () => {
    expect(await refusal('$NOPE', DEFS)).toBe('400 MACRO_UNKNOWN Unknown macro $NOPE');
    expect(await refusal('$X', { X: 'grep $Y', Y: '$MISSING' })).toBe('400 MACRO_UNKNOWN Unknown macro $MISSING (in $X -> $Y)');
    expect(await refusal('$A', { A: '$B', B: '$A' })).toBe('400 MACRO_LOOP Macro loop: $A -> $B -> $A');
    expect(await refusal('$A', { A: 'grep $A' })).toBe('400 MACRO_LOOP Macro loop: $A -> $A');
    expect(await refusal('$JSONF', DEFS)).toBe('400 MACRO_ARGUMENT_COUNT Macro $JSONF takes 1 argument, 0 given');
    expect(await refusal('$JSONF(a, b)', DEFS)).toBe('400 MACRO_ARGUMENT_COUNT Macro $JSONF takes 1 argument, 2 given');
    expect(await refusal('$APP(a)', DEFS)).toBe('400 MACRO_ARGUMENT_COUNT Macro $APP takes 0 arguments, 1 given');
    expect(await refusal('$JSONF(a', DEFS)).toBe('400 MACRO_CALL_UNTERMINATED Macro $JSONF: the argument list has no closing ")"');
    const deep = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`D${i}`, i === 39 ? 'grep x' : `$D${i + 1}`]));
    expect(await refusal('$D0', deep)).toMatch(/^400 MACRO_TOO_DEEP Macros nest more than 16 deep: \$D0 -> \$D1 -> /);
    // 2^7 times 1,005 characters if it were expanded, within the depth and call limits
    const bomb = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`B${i}`, i === 7 ? `grep ${'x'.repeat(1000)}` : `$B${i + 1} $B${i + 1}`]));
    expect(await refusal('$B0', bomb)).toBe(`400 MACRO_EXPANSION_TOO_LARGE The query with its macros expanded is longer than ${MACRO_MAX_EXPANDED_CHARS} characters`);
    // empty macros called many times grow nothing but the work
    const calls = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`C${i}`, i === 7 ? '' : `$C${i + 1} `.repeat(20)]));
    expect(await refusal('$C0', calls)).toBe('400 MACRO_TOO_MANY_CALLS The query expands more than 1000 macros');
    expect(await refusal(`$JSONF(${Array.from({ length: 10_000 }, (_, i) => `a${i}`).join(',')})`, DEFS)).toBe('400 MACRO_TOO_MANY_ARGUMENTS Macro $JSONF: more than 32 arguments');
    expect(await refusal(`tag=x ${'$EMPTY '.repeat(10_000)}`, DEFS)).toBe('400 MACRO_TOO_MANY_CALLS The query expands more than 1000 macros');
  });

  it("a parse error inside an expansion names the macro and points at the user's text", async () => {
    const x = await expandMacros('$APP grep a | $BAD | table', table({ APP: 'tag=app', BAD: 'grep b | $INNER', INNER: 'nosuchmodule x' }));
    expect(x.query).toBe('tag=app grep a | grep b | nosuchmodule x | table');
    const d = describeQuery(x.query);
    expect(d).toMatchObject({ GoodQuery: false, ModuleIndex: 2 });
    expect(attributeParseError(x, d.ParseError!, d.ModuleIndex)).toEqual({
      message: 'ModuleError: nosuchmodule is not a valid module (in the expansion of $BAD, from $INNER, at offset 14 of the query: $BAD)',
      moduleIndex: 1,
    });
    // an error in the user's own text is left as it is
    const own = await expandMacros('$APP grep a | nosuch', table({ APP: 'tag=app' }));
    const e = describeQuery(own.query);
    expect(attributeParseError(own, e.ParseError!, e.ModuleIndex)).toEqual({ message: e.ParseError, moduleIndex: 1 });
    expect(new ParseError('x', 0).moduleIndex).toBe(0);
    expect(segmentsOf('a "|" | b (c | d) | `|` e')).toEqual([
      [0, 6],
      [7, 18],
      [19, 25],
    ]);
  });
});
