import { describeQuery } from '../describe';
import { ALL, LOOKUPS, MIN, RANGE, T0 } from '../fixtures.spec-helper';
import { parseCsvTable } from '../lookup-table';
import { runQueryInMemory } from '../memory';
import { parseQuery } from '../parser';
import { compileQuery } from '../planner';
import { Entry, ParseError } from '../types';
import { evToString } from '../values';

const table = (csv: string) => parseCsvTable(Buffer.from(csv));
const TABLES = new Map([
  ...LOOKUPS,
  ['pairs', table('u,h,note\nalice,h1,a1\nbob,h2,b2\n')],
  ['codes', table('code,text\n200,OK\n404,Not Found\n')],
  ['dups', table('user,team\nbob,first\nbob,second\n')],
]);

function run(q: string): Entry[] {
  const r = runQueryInMemory(q, ALL, { ...RANGE, lookups: TABLES }).result;
  if (r.kind !== 'entries') throw new Error(`not entries: ${r.kind}`);
  return r.Entries;
}
const minutes = (q: string) => run(q).map((e) => (e.ts - T0) / MIN);
const cols = (q: string, names: string[]) => run(q).map((e) => names.map((n) => (e.evs.has(n) ? evToString(e.evs.get(n)!) : undefined)));

function parseError(q: string): ParseError {
  try {
    parseQuery(q);
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error(`query parsed: ${q}`);
}

describe('lookup: parsing', () => {
  it('reads flags, operations, lists, parenthesised extractions and names', () => {
    const p = parseQuery('tag=app json user | lookup -s -r users user user team as t [user SRC] [a b] (c d as dd) | table');
    const m = p.modules[1];
    expect(m.instance.resources).toEqual([{ ref: 'users', columns: ['user', 'a', 'b', 'team', 'c', 'd'] }]);
    expect(m.instance.produced).toEqual(['t', 'c', 'dd']);
    expect(m.instance.consumed).toEqual(['user', 'SRC']);
    expect(m.def.condensing).toBe(false);
    expect(parseQuery('lookup -v -r "my table" [ a b ] [x y] ()').modules[0].instance).toMatchObject({ resources: [{ ref: 'my table', columns: ['x', 'y'] }], produced: [] });
    expect(parseQuery('lookup -r 0b6a1c1e-8f63-4a4e-9b1a-0f3f0e1f2a3b a b c').modules[0].instance.resources![0].ref).toBe('0b6a1c1e-8f63-4a4e-9b1a-0f3f0e1f2a3b');
    expect(parseQuery('lookup -r t [a] ["x y"] z').modules[0].instance.resources).toEqual([{ ref: 't', columns: ['x y', 'z'] }]);
  });

  it.each([
    ['lookup user user team', 'ModuleError: lookup: missing -r <resource>'],
    ['lookup -r', 'ModuleError: lookup: missing value for flag -r'],
    ['lookup -r users', 'ModuleError: lookup: missing operation: <enumerated value> <match column> <extract column>'],
    ['lookup -r users user', 'ModuleError: lookup: missing match column'],
    ['lookup -r users user user', 'ModuleError: lookup: missing extract column after "user"'],
    ['lookup -r users user user team as', 'ModuleError: lookup: missing name after "as"'],
    ['lookup -r users [a b] [x] c', 'ModuleError: lookup: 2 enumerated values but 1 match column'],
    ['lookup -r users [a b x c', 'ModuleError: lookup: missing "]" after the enumerated value list'],
    ['lookup -r users [] x c', 'ModuleError: lookup: empty enumerated value list'],
    ['lookup -r users a x (c', 'ModuleError: lookup: missing ")" after the extract columns'],
    ['lookup -r users a x ()', 'ModuleError: lookup: "()" extracts nothing: only allowed with -s or -v'],
    ['lookup -q -r users a x c', 'ModuleError: lookup: unknown flag -q'],
  ])('%s -> %s', (q, msg) => {
    const e = parseError(`tag=app json a | ${q} | table`);
    expect(e.message).toBe(msg);
    expect(e.moduleIndex).toBe(1);
  });

  it('describes the module in /api/parse hints', () => {
    const d = describeQuery('tag=app json user | lookup -r users user user team | count by team');
    expect(d.GoodQuery).toBe(true);
    expect(d.ModuleHints[1]).toMatchObject({ Name: 'lookup', ProducedEVs: ['team'], ConsumedEVs: ['user'], Condensing: false });
  });
});

describe('lookup: results on the fixtures (users: alice red 1, bob blue 2; no carol)', () => {
  // tag=app newest first: malformed (6), alice (5), bob (4), carol (3), alice (2), bob (1), alice (0)
  it('extracts the matching row, keeps entries without a match', () => {
    expect(cols('tag=app json user | lookup -r users user user team', ['user', 'team'])).toEqual([
      [undefined, undefined],
      ['alice', 'red'],
      ['bob', 'blue'],
      ['carol', undefined],
      ['alice', 'red'],
      ['bob', 'blue'],
      ['alice', 'red'],
    ]);
  });

  it('names with as, extracts several columns, runs several operations', () => {
    expect(cols('tag=app json user | lookup -r users user user (team as t level) | limit 3', ['t', 'level', 'team'])).toEqual([
      [undefined, undefined, undefined],
      ['red', '1', undefined],
      ['blue', '2', undefined],
    ]);
    expect(cols('tag=app json user | lookup -s -r users user user team user user level as lv | limit 2', ['team', 'lv'])).toEqual([
      ['red', '1'],
      ['blue', '2'],
    ]);
  });

  it('-s drops entries without a match; -v keeps only them and extracts nothing', () => {
    expect(minutes('tag=app json user | lookup -s -r users user user team')).toEqual([5, 4, 2, 1, 0]);
    expect(minutes('tag=app json user | lookup -v -r users user user team')).toEqual([6, 3]);
    expect(minutes('tag=app json user | lookup -v -s -r users user user ()')).toEqual([6, 3]);
    expect(run('tag=app json user | lookup -v -r users user user team').some((e) => e.evs.has('team'))).toBe(false);
  });

  it('matches numbers as their text, vectors of values, and takes the first matching row', () => {
    expect(cols('tag=app json status | lookup -s -r codes status code text', ['status', 'text'])).toEqual([
      ['200', 'OK'],
      ['200', 'OK'],
      ['200', 'OK'],
      ['404', 'Not Found'],
      ['200', 'OK'],
    ]);
    expect(minutes('tag=app json user meta.host | lookup -s -r pairs [user host] [u h] note')).toEqual([2, 1, 0]);
    expect(cols('tag=app json user meta.host | lookup -s -r pairs [user host] [u h] note', ['note'])).toEqual([['a1'], ['b2'], ['a1']]);
    expect(cols('tag=app json user | lookup -s -r dups user user team', ['team'])).toEqual([['first'], ['first']]);
  });

  it('feeds aggregates: count by the looked-up value', () => {
    const r = runQueryInMemory('tag=app json user | lookup -r users user user team | count by team | table team count', ALL, { ...RANGE, lookups: TABLES }).result;
    // carol and the malformed entry have no team: count by leaves them out
    expect(r.kind === 'table' && r.Entries.Rows.map((x) => x.Row)).toEqual([
      ['blue', '2'],
      ['red', '3'],
    ]);
  });

  it('refuses at compile time a table that was not loaded or lacks a column; never runs unbound', () => {
    const q = 'tag=app json user | lookup -r users user user shoe';
    expect(() => compileQuery(q, { ...RANGE, lookups: undefined })).not.toThrow();
    expect(() => compileQuery(q, { ...RANGE, lookups: TABLES })).toThrow(new ParseError('ModuleError: lookup: resource "users" has no column "shoe"', 1));
    expect(() => compileQuery('lookup -r nope a b c', { ...RANGE, lookups: TABLES })).toThrow('ModuleError: lookup: resource "nope" was not loaded');
    const unbound = compileQuery('tag=app json user | lookup -r users user user team', { ...RANGE, lookups: undefined });
    expect(() => unbound.createDistributed().push([{ ...ALL[0], evs: new Map() }])).toThrow('lookup: resource "users" was not loaded for this search');
  });
});
