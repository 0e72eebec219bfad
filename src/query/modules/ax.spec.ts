import { runQueryInMemory } from '../memory';
import { parseQuery } from '../parser';
import { RenderResult } from '../renderers/renderer';
import { Entry, ParseError } from '../types';
import { AxDefinition, checkAxDefinition, runAxDefinition, usesAx } from './ax';
import { makeRuntime } from '../planner';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const SEC = 1_000_000;
const TAGS = { 1: 'app', 2: 'kvs', 3: 'csvs', 4: 'web', 5: 'tsv', 6: 'bare' };
const RANGE = { start: new Date(T0 / 1000 - 3600_000), end: new Date(T0 / 1000 + 3600_000), now: new Date(T0 / 1000 + 3600_000), tagNames: TAGS };

function entries(tag: number, lines: string[]): Entry[] {
  return lines.map((l, i) => ({ ts: T0 + (i + 1) * SEC + tag, tag, src: '10.0.0.1', data: Buffer.from(l), evs: new Map() }));
}

const DATA: Entry[] = [
  ...entries(1, ['{"user":"alice","status":200,"req":{"path":"/a"}}', '{"user":"bob","status":500,"req":{"path":"/b"}}', '{"user":"carol","status":404}', 'not json']),
  ...entries(2, ['user=alice status=200 path=/a', 'user=bob status=500 path=/b', 'status=302']),
  ...entries(3, ['alice,200,"/a,x"', 'bob,500,/b', 'carol']),
  ...entries(4, ['10.1.1.1 GET /index 200', '10.1.1.2 POST /login 500', 'garbage']),
  ...entries(5, ['alice\t200\t/a', 'bob\t500\t/b']),
  ...entries(6, ['no definition here']),
];

const def = (tags: string[], module: string, params: string, args = '', name = module): AxDefinition => ({ tags, name, module, params, args });

const DEFS: AxDefinition[] = [
  def(['app'], 'json', 'user status req.path as path'),
  def(['kvs'], 'kv', 'user status path'),
  def(['csvs'], 'csv', 'user, status, path'),
  def(['web'], 'regex', '^(?P<ip>\\S+) (?P<method>\\S+) (?P<path>\\S+) (?P<status>\\d+)$'),
  def(['tsv'], 'fields', 'user, status, path', '-d "\\t"'),
];

function run(q: string, autoextractors: readonly AxDefinition[] = DEFS): RenderResult {
  return runQueryInMemory(q, DATA, { ...RANGE, autoextractors, indexers: 2, batchSize: 2 }).result;
}

/** The table's rows (or the entries' EVs), comparable across two queries. */
function answer(q: string): unknown {
  const r = run(q);
  if (r.kind === 'table') return { columns: r.Entries.Columns, rows: r.Entries.Rows.map((x) => x.Row) };
  if (r.kind === 'entries') return r.Entries.map((e) => [e.ts, [...e.evs].sort()]);
  return r;
}

function parseError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof ParseError) return err.message;
    throw err;
  }
  throw new Error('no error');
}

describe('ax gives the answer of the query written out with the module', () => {
  const cases: Array<[string, string]> = [
    // json
    ['tag=app ax | table user status path', 'tag=app json user status req.path as path | table user status path'],
    ['tag=app ax user status | table', 'tag=app json user status | table'],
    ['tag=app ax status==500 user | table', 'tag=app json status==500 user | table'],
    ['tag=app ax status!=200 | table status', 'tag=app json status!=200 | table status'],
    // only filters: every field of the definition, as the product's `ax email~"test.org" | table`
    ['tag=app ax status==500 | table', 'tag=app json user status==500 req.path as path | table'],
    ['tag=app ax status==404 | count by user | table user count', 'tag=app json status==404 user | count by user | table user count'],
    ['tag=web ax status=="500" | table', 'tag=web regex "^(?P<ip>\\S+) (?P<method>\\S+) (?P<path>\\S+) (?P<status>\\d+)$" status=="500" | table'],
    ['tag=csvs ax status=="500" | table', 'tag=csvs csv [0] as user [1]=="500" as status [2] as path | table'],
    ['tag=app ax path as p | table p', 'tag=app json req.path as p | table p'],
    // kv
    ['tag=kvs ax | table', 'tag=kvs kv user status path | table'],
    ['tag=kvs ax status>=500 user | table', 'tag=kvs kv status>=500 user | table'],
    ['tag=kvs ax user~"li" | table', 'tag=kvs kv user~"li" status path | table'],
    // csv
    ['tag=csvs ax | table', 'tag=csvs csv [0] as user [1] as status [2] as path | table'],
    ['tag=csvs ax status=="500" user | table', 'tag=csvs csv [1]=="500" as status [0] as user | table'],
    ['tag=csvs ax path | count by path | table', 'tag=csvs csv [2] as path | count by path | table'],
    // regex
    ['tag=web ax | table', 'tag=web regex "^(?P<ip>\\S+) (?P<method>\\S+) (?P<path>\\S+) (?P<status>\\d+)$" | table'],
    ['tag=web ax method path | table', 'tag=web regex "^(?P<ip>\\S+) (?P<method>\\S+) (?P<path>\\S+) (?P<status>\\d+)$" | table method path'],
    ['tag=web ax status=="500" path | table path', 'tag=web regex "^(?P<ip>\\S+) (?P<method>\\S+) (?P<path>\\S+) (?P<status>\\d+)$" status=="500" | table path'],
    // fields
    ['tag=tsv ax | table', 'tag=tsv fields -d "\\t" [0] as user [1] as status [2] as path | table'],
    ['tag=tsv ax user!="bob" | table user', 'tag=tsv fields -d "\\t" [0]!="bob" as user | table user'],
    // entries themselves (the text renderer): the same EVs on the same entries
    ['tag=app ax user', 'tag=app json user'],
  ];
  it.each(cases)('%s == %s', (withAx, written) => {
    expect(answer(withAx)).toEqual(answer(written));
    // and the answer is not empty: the comparison proves something
    const r = run(withAx);
    expect(r.kind === 'table' ? r.Entries.Rows.length : r.kind === 'entries' ? r.Entries.length : 1).toBeGreaterThan(0);
  });

  it('one query over several tags extracts each through its own definition', () => {
    const r = run('tag=app,kvs,csvs,tsv ax user status==500 | table user status');
    if (r.kind !== 'table') throw new Error(r.kind);
    expect(r.Entries.Rows.map((x) => x.Row).sort()).toEqual([
      ['bob', '500'],
      ['bob', '500'],
      ['bob', '500'],
      ['bob', '500'],
    ]);
  });
});

describe('ax refusals and warnings', () => {
  it('refuses a query none of whose tags has a definition', () => {
    expect(parseError(() => run('tag=bare ax | table'))).toBe('ModuleError: ax: no autoextractor is defined for the tags of this query (bare)');
    expect(parseError(() => run('tag=app ax | table', []))).toMatch(/no autoextractor is defined/);
  });

  it('refuses a field no definition of the tags extracts', () => {
    expect(parseError(() => run('tag=app ax nosuch'))).toMatch(/no autoextractor of this query's tags extracts "nosuch"/);
  });

  it("refuses a filter the engine refuses, in the engine's words", () => {
    expect(parseError(() => run('tag=csvs ax status>5'))).toMatch(/ax: autoextractor "csv" \(csv\) for tag csvs: operator > is not supported/);
  });

  it('names the definition when its engine refuses it (a bad regex)', () => {
    const bad = [def(['web'], 'regex', '(?P<x>[a-')];
    expect(parseError(() => run('tag=web ax', bad))).toMatch(/ax: autoextractor "regex" \(regex\) for tag web: invalid regular expression/);
  });

  it('warns about the tags of the query without a definition, and lets their entries pass without fields', () => {
    const r = run('tag=app,bare ax user | table user');
    if (r.kind !== 'table') throw new Error(r.kind);
    expect(r.Warnings).toEqual(['ax: no autoextractor is defined for tag bare: its entries pass without extracted fields']);
    expect(r.Entries.Rows.length).toBe(5); // 4 app (one without user: empty cell) + 1 bare
    const filtered = run('tag=app,bare ax user=="bob" | table user');
    if (filtered.kind !== 'table') throw new Error(filtered.kind);
    expect(filtered.Entries.Rows.map((x) => x.Row)).toEqual([['bob']]);
    expect(filtered.Warnings?.[0]).toMatch(/do not pass the filters/);
  });

  it('is described (fields named) without the definitions, and never runs so', () => {
    expect(parseQuery('tag=app ax a b').modules[0].instance.produced).toEqual(['a', 'b']);
  });
});

describe('definitions checked and tried on samples', () => {
  const rt = makeRuntime(undefined, new Date(), undefined);
  it('answers the fields a definition extracts', () => {
    expect(checkAxDefinition(DEFS[0])).toEqual(['user', 'status', 'path']);
    expect(checkAxDefinition(def(['x'], 'csv', 'a,, "b, c"'))).toEqual(['a', 'b, c']);
  });
  it.each([
    [def(['x'], 'asdf', 'a'), /asdf is not a supported engine/],
    [def(['x'], 'regex', '(?P<a>['), /invalid regular expression/],
    [def(['x'], 'regex', '(a)'), /no named capture groups/],
    [def(['x'], 'json', 'a', '-e foo'), /-e flag is not allowed/],
    [def(['x'], 'json', 'a==1'), /cannot filter/],
    [def(['x'], 'json', 'a | b'), /may not contain "\|"/],
    [def(['x'], 'fields', 'a', '-z'), /unknown flag -z/],
    [def(['x'], 'csv', ''), /parameters missing/],
    [def(['x'], 'grok', '%{IP}'), /grok is not a supported engine/],
  ])('refuses %j', (d, msg) => {
    expect(() => checkAxDefinition(d)).toThrow(msg);
  });
  it('runs a definition over sample lines', () => {
    expect(runAxDefinition(DEFS[3], ['1.2.3.4 GET /x 200', 'nope'], rt)).toEqual([{ ip: '1.2.3.4', method: 'GET', path: '/x', status: '200' }, null]);
  });
});

describe('usesAx', () => {
  it.each([
    ['tag=app ax', true],
    ['tag=app,b start=-1h ax a', true],
    ['tag=app json a | ax b', true],
    ['ax', true],
    ['tag=app grep ax', false],
    ['tag=app json ax', false],
    ['tag=app json a', false],
  ])('%s -> %s', (q, want) => expect(usesAx(q)).toBe(want));
});
