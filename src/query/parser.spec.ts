import { describeQuery } from './describe';
import { searchModuleInfos } from './modules/registry';
import { parseQuery } from './parser';
import { compileQuery } from './planner';
import { renderModuleInfos } from './renderers/registry';
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

describe('parseQuery: structure', () => {
  it('parses constraints, modules and an explicit renderer', () => {
    const p = parseQuery('tag=syslog,app* start=-1h end=NOW json a b | count by a | table a count');
    expect(p.constraints.tags).toEqual(['syslog', 'app*']);
    expect(p.constraints.start).toEqual({ text: '-1h', quoted: false });
    expect(p.constraints.end).toEqual({ text: 'NOW', quoted: false });
    expect(p.timeSpecified).toBe(true);
    expect(p.modules.map((m) => m.name)).toEqual(['json', 'count']);
    expect(p.renderer).toMatchObject({ name: 'table', index: 2, implicit: false });
    expect(p.collapsingIndex).toBe(1);
    expect(p.effectiveQuery).toBe(p.parsedQuery);
  });

  it('defaults to tag=default and appends an implicit text renderer', () => {
    const p = parseQuery('json a /* c */');
    expect(p.constraints.tags).toEqual(['default']);
    expect(p.timeSpecified).toBe(false);
    expect(p.renderer).toMatchObject({ name: 'text', index: 1, implicit: true });
    expect(p.parsedQuery).toBe('json a');
    expect(p.effectiveQuery).toBe('json a | text');
    expect(p.collapsingIndex).toBe(1);
  });

  it('accepts a query of constraints only', () => {
    const p = parseQuery('tag=gravwell');
    expect(p.modules).toEqual([]);
    expect(p.effectiveQuery).toBe('tag=gravwell text');
    expect(p.collapsingIndex).toBe(0);
  });

  it('accepts a pipe straight after the tag specification, as `tag=x count` (the product writes both)', () => {
    const piped = parseQuery('tag=x start=-1h | count by a | table a count');
    const plain = parseQuery('tag=x start=-1h count by a | table a count');
    expect(piped.constraints).toEqual(plain.constraints);
    expect(piped.modules.map((m) => m.name)).toEqual(['count']);
    expect(piped.collapsingIndex).toBe(plain.collapsingIndex);
    // indexes count the query's segments, so an error still points at the module written there
    expect(piped.modules[0].index).toBe(1);
    expect(piped.renderer).toMatchObject({ name: 'table', index: 2 });
    expect(parseQuery('tag=x | json a').effectiveQuery).toBe('tag=x | json a | text');
    expect(parseQuery('tag=x | json a').renderer).toMatchObject({ name: 'text', index: 2, implicit: true });
    expect(parseError('tag=x | json a | MakeRainbows')).toMatchObject({ message: 'ModuleError: MakeRainbows is not a valid module', moduleIndex: 2 });
    expect(parseError('tag=x |')).toMatchObject({ message: 'ModuleError: missing module after "|"', moduleIndex: 1 });
    expect(parseError('tag=x | | count')).toMatchObject({ message: 'ModuleError: missing module after "|"', moduleIndex: 1 });
  });

  it('accepts quoted RFC3339 timestamps', () => {
    const p = parseQuery('tag=a start="2024-01-01T00:00:00Z" end="2024-01-02T00:00:00.5+02:00" count');
    expect(p.constraints.start).toEqual({ text: '2024-01-01T00:00:00Z', quoted: true });
  });

  it.each([
    ['json a.b.[0] c as d e=="x" f>3 as g', ['b', 'd', 'e', 'g']],
    ['json -e payload a.b', ['b']],
    ['kv -sep ":" -d "," host port as p', ['host', 'p']],
    ['kv level=="critical"', ['level']],
    ['regex "(?P<user>\\w+)@(?P<host>\\S+)"', ['user', 'host']],
    ['regex -e msg `(?P<code>\\d+)` code=="404" as c', ['c']],
    ['fields -d "\\t" [9] as url [2]', ['url', '2']],
    ['stats count sum(x) mean(x) as avg unique_count(u) by a b over 5m', ['count', 'sum', 'avg', 'unique_count']],
    ['count', ['count']],
    ['count x by a', ['count']],
    ['sum x by a', ['sum']],
    ['variance x over 1h', ['variance']],
  ])('module %s produces %j', (q, produced) => {
    expect(parseQuery(q).modules[0].instance.produced).toEqual(produced);
  });

  it.each([
    'grep -v -e SRC a b',
    'words -or a b',
    'sort',
    'sort by count desc',
    'sort by src asc',
    'limit 10',
    'limit 10 20',
    'unique',
    'unique a b',
    'mean x',
    'min x by y',
    'max x',
    'stddev x',
    'table',
    'table -nt a b',
    'chart',
    'chart count by user limit 10',
    'chart min max mean',
    'gauge mean',
    'gauge (mean 0 100 "Label") max',
    'numbercard count',
    'raw',
    'text',
  ])('accepts %s', (q) => expect(() => parseQuery(q)).not.toThrow());
});

describe('parseQuery: errors name the module', () => {
  it.each([
    ['tag=x json a | MakeRainbows', 'ModuleError: MakeRainbows is not a valid module', 1],
    ['json a | count | Foo | table', 'ModuleError: Foo is not a valid module', 2],
    ['json', 'ModuleError: json: missing field argument', 0],
    ['json a | kv', 'ModuleError: kv: missing key argument', 1],
    ['json a | regex', 'ModuleError: regex: missing regular expression argument', 1],
    ['json a | fields', 'ModuleError: fields: missing field index argument', 1],
    ['grep', 'ModuleError: grep: missing pattern argument', 0],
    ['words -or', 'ModuleError: words: missing word argument', 0],
    ['json x | sum', 'ModuleError: sum: missing EV argument', 1],
    ['stats', 'ModuleError: stats: missing operator argument, e.g. stats count', 0],
    ['stats mean(', 'ModuleError: stats: missing EV name in mean()', 0],
    ['stats bogus(x)', 'ModuleError: stats: "bogus" is not a stats operator', 0],
    ['stats sum(x) sum(y)', 'ModuleError: stats: duplicate output name "sum", use "as" to rename', 0],
    ['stats count by', 'ModuleError: stats: missing EV name after "by"', 0],
    ['count over 5q', 'ModuleError: count: invalid duration "5q"', 0],
    ['limit', 'ModuleError: limit: missing count', 0],
    ['limit ten', 'ModuleError: limit: invalid count "ten"', 0],
    ['limit 5 2', 'ModuleError: limit: empty range 5..2', 0],
    ['sort by x sideways', 'ModuleError: sort: unexpected argument "sideways"', 0],
    ['json -x a', 'ModuleError: json: flag -x (expanding an array into several entries) is not supported', 0],
    ['json -q a', 'ModuleError: json: unknown flag -q', 0],
    ['grok "%{IP:client}"', 'ModuleError: grok: not supported', 0],
    ['json a b==', 'ModuleError: json: missing value after b==', 0],
    ['json a | regex "(?P<x>[a-"', 'ModuleError: regex: invalid regular expression', 1],
    ['regex "(a)"', 'ModuleError: regex: regular expression has no named capture groups', 0],
    ['regex "(?P<a>x)" b=="1"', 'ModuleError: regex: filter on unknown capture group "b"', 0],
    ['json a | gauge', 'ModuleError: gauge: missing EV argument', 1],
    ['gauge (mean zero)', 'ModuleError: gauge: invalid minimum "zero"', 0],
    ['chart limit x', 'ModuleError: chart: invalid limit "x"', 0],
    ['json a | table a | count', 'ModuleError: renderer table must be the last module', 1],
    ['text | json a', 'ModuleError: renderer text must be the last module', 0],
    ['json a | | count', 'ModuleError: missing module after "|"', 1],
    ['json a |', 'ModuleError: missing module after "|"', 1],
    ['| json a', 'ModuleError: missing module before "|"', 0],
    ['"json" a', 'ModuleError: json is not a valid module', 0],
    ['json a | grep "unterminated', 'SyntaxError: unterminated quoted string', 1],
    ['json a | count /* x', 'SyntaxError: unterminated comment', 1],
    ['   // only a comment', 'SyntaxError: empty query', 0],
    ['tag=a,,b json x', 'ConstraintError: invalid tag list "a,,b": empty tag name', 0],
    ['tag=a.b json x', 'ConstraintError: invalid tag name "a.b"', 0],
    ['tag=a tag=b json x', 'ConstraintError: tag= given more than once', 0],
    ['start=-10q json x', 'ConstraintError: start=: invalid duration "-10q"', 0],
    ['end="yesterday" json x', 'ConstraintError: end=: invalid timestamp "yesterday"', 0],
    ['tag= | count', 'ConstraintError: missing value for tag=', 0],
  ])('%s', (q, message, index) => {
    const err = parseError(q);
    expect(err.message.startsWith(message)).toBe(true);
    expect(err.moduleIndex).toBe(index);
  });
});

describe('describeQuery', () => {
  it('describes a good query like POST /api/parse', () => {
    expect(describeQuery('tag=gravwell json a.b as x y | limit 10')).toEqual({
      GoodQuery: true,
      ParsedQuery: 'tag=gravwell json a.b as x y | limit 10',
      RawQuery: 'tag=gravwell json a.b as x y | limit 10',
      ModuleIndex: 0,
      CollapsingIndex: 1,
      RenderModule: 'text',
      TimeZoomDisabled: false,
      Tags: ['gravwell'],
      ModuleHints: [
        { Name: 'json', ProducedEVs: ['x', 'y'], ConsumedEVs: null, ResourcesNeeded: null, Condensing: false },
        { Name: 'limit', ProducedEVs: null, ConsumedEVs: null, ResourcesNeeded: null, Condensing: true },
      ],
      SideEffects: [],
    });
  });

  it('reports the offending module of a bad query', () => {
    const d = describeQuery('tag=gravwell json x | MakeRainbows');
    expect(d).toMatchObject({
      GoodQuery: false,
      ParseError: 'ModuleError: MakeRainbows is not a valid module',
      ModuleIndex: 1,
      RawQuery: 'tag=gravwell json x | MakeRainbows',
    });
  });

  it.each([
    ['json x | count', true],
    ['json x | stats count over 5m | chart count', false],
    ['json x | sort by x', true],
    ['json x | sort', false],
    ['json x | grep y', false],
    ['stats count over 1m | gauge count', true],
    ['json x | table -nt x', true],
  ])('TimeZoomDisabled for %s is %s', (q, disabled) => {
    expect(describeQuery(q).TimeZoomDisabled).toBe(disabled);
  });

  it('reports the renderer and consumed EVs', () => {
    const d = describeQuery('json x y | stats sum(x) by y | chart sum by y');
    expect(d.RenderModule).toBe('chart');
    expect(d.CollapsingIndex).toBe(1);
    expect(d.ModuleHints[1]).toEqual({ Name: 'stats', ProducedEVs: ['sum'], ConsumedEVs: ['x', 'y'], ResourcesNeeded: null, Condensing: true });
  });

  it('names the resources a module reads in its hint', () => {
    const d = describeQuery('json host | lookup -r hosts host host owner | lookup -r 11111111-2222-3333-4444-555555555555 owner name team | table');
    expect(d.ModuleHints.map((h) => h.ResourcesNeeded)).toEqual([null, ['hosts'], ['11111111-2222-3333-4444-555555555555']]);
  });
});

describe('planner', () => {
  const opts = { start: new Date('2024-01-01T00:00:00Z'), end: new Date('2024-01-02T00:00:00Z'), now: new Date('2024-01-01T12:00:00.4Z') };

  it('pushes leading DATA greps, tags and the range', () => {
    const c = compileQuery('tag=web-*,dns grep "GET /*" | grep -v a b | grep x y | grep z', opts);
    expect(c.pushdown).toEqual({
      tags: ['web-*', 'dns'],
      start: opts.start,
      end: opts.end,
      grep: [
        { pattern: 'GET /*', invert: false },
        { pattern: 'a', invert: true },
        { pattern: 'b', invert: true },
      ],
      ordered: true,
    });
    expect(compileQuery('grep -e SRC x | grep y', opts).pushdown.grep).toEqual([]);
    expect(compileQuery('json a | grep y', opts).pushdown.grep).toEqual([]);
  });

  it('lets storage skip sorting only before an order-free condensing module', () => {
    expect(compileQuery('grep x | table', opts).pushdown.ordered).toBe(true);
    for (const q of ['kv a | count by a | table', 'stats sum(x) by y | table', 'limit 5 | table', 'unique a | table', 'sort by x | table', 'first a', 'top -n 3 x']) {
      expect(compileQuery(q, opts).pushdown.ordered).toBe(false);
    }
  });

  it('lets start=/end= override the request range', () => {
    const c = compileQuery('tag=a start=-2h end=NOW-1h count', opts);
    expect(c.queryTimeSpecified).toBe(true);
    expect(c.start.toISOString()).toBe('2024-01-01T10:00:00.000Z');
    expect(c.end.toISOString()).toBe('2024-01-01T11:00:00.000Z');
    expect(c.pushdown.start).toEqual(c.start);
    const d = compileQuery('tag=a end=START+1h count', opts);
    expect(d.end.toISOString()).toBe('2024-01-01T01:00:00.000Z');
    expect(compileQuery('count', opts).queryTimeSpecified).toBe(false);
  });

  it('rejects an end before the start', () => {
    expect(() => compileQuery('start=-1h end=-2h count', opts)).toThrow(/end is before start/);
  });

  it('exposes the renderer download formats', () => {
    expect(compileQuery('json a', opts).downloadFormats).toEqual(['text', 'json', 'csv', 'archive']);
    expect(compileQuery('json a | raw', opts).downloadFormats).toEqual(['text', 'json', 'csv', 'archive']);
    expect(compileQuery('json a | table', opts).downloadFormats).toEqual(['csv', 'json']);
    for (const r of ['chart', 'gauge a', 'numbercard a']) {
      expect(compileQuery(`json a | ${r}`, opts).downloadFormats).toEqual(['json', 'csv', 'archive']);
    }
  });
});

describe('module metadata', () => {
  it('lists search modules', () => {
    const infos = searchModuleInfos();
    const names = infos.map((i) => i.Name);
    for (const n of ['json', 'kv', 'regex', 'fields', 'grep', 'words', 'count', 'sum', 'mean', 'min', 'max', 'stddev', 'variance', 'stats', 'sort', 'limit', 'unique']) {
      expect(names).toContain(n);
    }
    expect(infos.find((i) => i.Name === 'sort')).toMatchObject({ Sorting: true, Collapsing: true, FrontendOnly: false });
    expect(infos.find((i) => i.Name === 'grep')).toMatchObject({ Sorting: false, Collapsing: false });
    for (const i of infos) expect(i.Examples.length).toBeGreaterThan(0);
  });

  it('lists renderers', () => {
    expect(renderModuleInfos().map((r) => r.Name)).toEqual(['text', 'raw', 'hex', 'table', 'chart', 'gauge', 'numbercard', 'stackgraph', 'wordcloud', 'pointmap']);
    for (const r of renderModuleInfos()) expect(r.Description).not.toBe('');
  });

  it('parses every documented example', () => {
    for (const i of searchModuleInfos()) for (const ex of i.Examples) expect(() => parseQuery(ex)).not.toThrow();
    for (const i of renderModuleInfos()) for (const ex of i.Examples) expect(() => parseQuery(ex)).not.toThrow();
  });
});
