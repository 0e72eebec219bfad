import { checkLookups, resourcesNeeded, runInnerQueries, splitCompound } from './compound';
import { describeQuery } from './describe';
import { ALL, LOOKUPS, RANGE } from './fixtures.spec-helper';
import { LookupTable, LookupTableError } from './lookup-table';
import { runQueryInMemory } from './memory';
import { parseQuery } from './parser';
import { RenderResult } from './renderers/renderer';
import { ParseError } from './types';

function parseError(q: string): ParseError {
  try {
    parseQuery(q);
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error(`query parsed: ${q}`);
}

const TEAMS = '@teams{tag=syslog kv user level | unique user | table user level}';

/** The executor's flow, in memory: inner queries first, then the main one with their tables. */
async function runCompound(q: string, maxBytes = 1 << 20): Promise<RenderResult> {
  const parsed = parseQuery(q);
  const inMemory = async (query: string, tables: ReadonlyMap<string, LookupTable>) => runQueryInMemory(query, ALL, { ...RANGE, lookups: tables, indexers: 2 }).result;
  const tables = await runInnerQueries(parsed, LOOKUPS, inMemory, maxBytes);
  return runQueryInMemory(q, ALL, { ...RANGE, lookups: tables, indexers: 2 }).result;
}

describe('splitCompound', () => {
  it('returns null for a plain query and splits inner queries from the main one', () => {
    expect(splitCompound('tag=a json x')).toBeNull();
    expect(splitCompound(' /* c */ @a{tag=x table}; @b_2 { tag=y json "}" `{` // }\n | table } ;main q')).toEqual({
      inner: [
        { name: 'a', query: 'tag=x table' },
        { name: 'b_2', query: ' tag=y json "}" `{` // }\n | table ' },
      ],
      main: 'main q',
    });
    expect(splitCompound('@a{tag=x eval if (a) { b = 1 } | table}; q')?.inner[0].query).toBe('tag=x eval if (a) { b = 1 } | table');
  });

  it.each([
    ['@{tag=x table}; q', 'SyntaxError: "@" must be followed by the inner query\'s name (letters, digits, _ . -)'],
    ['@a tag=x; q', 'SyntaxError: expected "{" after @a'],
    ['@a{tag=x table; q', 'SyntaxError: inner query @a has no closing "}"'],
    ['@a{tag=x table} q', 'SyntaxError: expected ";" after inner query @a'],
    ['@a{tag=x table};  ', 'SyntaxError: a compound query needs a main query after the inner queries'],
    ['@a{tag=x table}; @a{tag=y table}; q', 'SyntaxError: inner query @a is defined twice'],
  ])('%s -> %s', (q, msg) => {
    expect(parseError(q)).toEqual(new ParseError(msg, 0));
  });
});

describe('parseQuery: compound queries', () => {
  it('parses the main query and keeps the inner ones; the whole text is the raw and effective query', () => {
    const p = parseQuery(`${TEAMS}; tag=app json user | lookup -r @teams user user level | count by level`);
    expect(p.inner!.map((i) => [i.name, i.query, i.parsed.renderer.name])).toEqual([['teams', 'tag=syslog kv user level | unique user | table user level', 'table']]);
    expect(p.constraints.tags).toEqual(['app']);
    expect(p.modules.map((m) => m.name)).toEqual(['json', 'lookup', 'count']);
    expect(p.effectiveQuery).toBe(
      '@teams{tag=syslog kv user level | unique user | table user level}; tag=app json user | lookup -r @teams user user level | count by level | text',
    );
    expect(resourcesNeeded(p)).toEqual([{ ref: '@teams', columns: ['user', 'level'], moduleIndex: 1, inner: undefined }]);
    const d = describeQuery(`${TEAMS}; tag=app json user | lookup -r @teams user user level | count by level | table`);
    expect(d).toMatchObject({ GoodQuery: true, CollapsingIndex: 2, RenderModule: 'table', Tags: ['app'] });
  });

  it('lets an inner query read an earlier one, never a later one or itself', () => {
    const ok = parseQuery(`${TEAMS}; @lv{tag=app json user | lookup -r @teams user user level | table user level}; tag=app json user | lookup -r @lv user user level`);
    expect(resourcesNeeded(ok).map((n) => [n.ref, n.inner])).toEqual([
      ['@teams', 'lv'],
      ['@lv', undefined],
    ]);
    expect(parseError('@a{tag=x json u | lookup -r @b u u v | table}; @b{tag=y table}; q')).toEqual(
      new ParseError('ModuleError: lookup: @b is not an inner query defined before this query (in inner query @a)', 1),
    );
    expect(parseError('@a{tag=x json u | lookup -r @a u u v | table}; q').message).toBe(
      'ModuleError: lookup: @a is not an inner query defined before this query (in inner query @a)',
    );
    expect(parseError(`${TEAMS}; tag=app json user | lookup -r @nope user user level`)).toEqual(
      new ParseError('ModuleError: lookup: @nope is not an inner query defined before this query', 1),
    );
  });

  it('names the inner query in its parse errors and wants it to end in table (without -save)', () => {
    expect(parseError('@t{tag=x MakeRainbows | table}; tag=y')).toEqual(new ParseError('ModuleError: MakeRainbows is not a valid module (in inner query @t)', 0));
    expect(parseError('@t{tag=x json a}; tag=y')).toEqual(new ParseError('ModuleError: inner query @t must end with table', 1));
    expect(parseError('@t{tag=x json a | chart a}; tag=y').message).toBe('ModuleError: inner query @t must end with table');
    expect(parseError('@t{tag=x json a | table -save x a}; tag=y').message).toBe('ModuleError: table -save is not supported in inner query @t');
    expect(parseError(`${TEAMS}; tag=y MakeRainbows`)).toEqual(new ParseError('ModuleError: MakeRainbows is not a valid module', 0));
    expect(describeQuery('@t{tag=x json a}; tag=y')).toMatchObject({ GoodQuery: false, ParseError: 'ModuleError: inner query @t must end with table', ModuleIndex: 1 });
  });

  it('checks at launch the columns of inner tables written out, and everything once they ran', () => {
    const p = parseQuery(`${TEAMS}; tag=app json user | lookup -r @teams user user shoe`);
    expect(() => checkLookups(p, new Map(), { partial: true })).toThrow(new ParseError('ModuleError: lookup: inner query "@teams" has no column "shoe"', 1));
    const open = parseQuery('@t{tag=syslog kv user | table}; tag=app json user | lookup -r @t user user shoe');
    expect(() => checkLookups(open, new Map(), { partial: true })).not.toThrow();
    expect(() => checkLookups(open, new Map())).toThrow('ModuleError: lookup: resource "@t" was not loaded');
    // a plain query may read @name only when it runs as an inner query; launched on its own it is refused
    const bare = parseQuery('tag=app json user | lookup -r @t user user x');
    expect(() => checkLookups(bare, new Map(), { partial: true })).toThrow(new ParseError('ModuleError: lookup: @t is not an inner query defined before this query', 1));
  });
});

describe('runInnerQueries', () => {
  // syslog: alice info then critical (newest), bob critical, carol warn -> unique keeps the newest per user
  it('runs the inner query first and looks up its table in the main query', async () => {
    const r = await runCompound(`${TEAMS}; tag=app json user | lookup -r @teams user user level | count by level | table level count`);
    expect(r.kind === 'table' && r.Entries.Rows.map((x) => x.Row)).toEqual([
      ['critical', '5'],
      ['warn', '1'],
    ]);
  });

  it('chains inner queries and mixes them with resources', async () => {
    const q = `${TEAMS}; @crit{tag=app json user | lookup -s -r @teams user user level | lookup -r users user user team | unique team | table team level}; tag=app json user | lookup -r users user user team | lookup -s -r @crit team team level | count by level | table level count`;
    const r = await runCompound(q);
    // red (alice) and blue (bob) are both critical; carol has no team
    expect(r.kind === 'table' && r.Entries.Rows.map((x) => x.Row)).toEqual([['critical', '5']]);
  });

  it('bounds an inner table by maxBytes and names the inner query', async () => {
    // rows: alice critical, bob critical, carol warn = 5+8+3+8+5+4 = 33 bytes
    await expect(runCompound(`${TEAMS}; tag=app json user | lookup -r @teams user user level`, 32)).rejects.toThrow(
      new LookupTableError('inner query @teams: its table takes 33 bytes, more than the limit of 32 bytes'),
    );
    await expect(runCompound(`${TEAMS}; tag=app json user | lookup -r @teams user user level`, 33)).resolves.toMatchObject({ kind: 'entries' });
  });
});
