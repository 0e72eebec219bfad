/** first/last, top/bottom, nosort, and the flags of the condensing modules (issue 16). */
import { ALL, MIN, RANGE, T0 } from '../fixtures.spec-helper';
import { QueryLimits } from '../limits';
import { runQueryInMemory } from '../memory';
import { parseQuery } from '../parser';
import { Entry, ParseError } from '../types';
import { evToString } from '../values';

function result(q: string, data: Entry[] = ALL, limits?: Partial<QueryLimits>, indexers = 1): Entry[] {
  const r = runQueryInMemory(q, data, { ...RANGE, indexers, limits }).result;
  if (r.kind !== 'entries') throw new Error(`not an entries result: ${r.kind}`);
  return r.Entries;
}
const minutes = (q: string, data?: Entry[]) => result(q, data).map((e) => (e.ts - T0) / MIN);
const ev = (q: string, name: string, data?: Entry[]) => result(q, data).map((e) => (e.evs.has(name) ? evToString(e.evs.get(name)!) : undefined));

function parseError(q: string): string {
  try {
    parseQuery(q);
  } catch (e) {
    if (e instanceof ParseError) return e.message;
    throw e;
  }
  throw new Error(`query parsed: ${q}`);
}

const json = (docs: object[]): Entry[] => docs.map((d, i) => ({ ts: T0 + i * MIN, tag: 1, src: '', data: Buffer.from(JSON.stringify(d)), evs: new Map() }));

describe('first and last', () => {
  it('take the earliest and the most recent entry', () => {
    expect(minutes('tag=app first')).toEqual([0]);
    expect(minutes('tag=app last')).toEqual([6]);
  });

  it('take one entry per key, output newest first, whatever the number of indexers', () => {
    expect(ev('tag=app json user | first user', 'user')).toEqual(['carol', 'bob', 'alice']);
    expect(minutes('tag=app json user | first user')).toEqual([3, 1, 0]);
    expect(minutes('tag=app json user | last user')).toEqual([5, 4, 3]);
    const r = runQueryInMemory('tag=app json user | last user', ALL, { ...RANGE, indexers: 3, batchSize: 1 }).result;
    expect(r.kind === 'entries' && r.Entries.map((e) => (e.ts - T0) / MIN)).toEqual([5, 4, 3]);
  });

  it('take the first or last entry seen after a module that ordered them', () => {
    expect(minutes('tag=app json user bytes | sort by bytes desc | first user')).toEqual([5, 4, 3]);
    expect(minutes('tag=app json user bytes | sort by bytes desc | last user')).toEqual([0, 1, 3]);
  });

  it('group by several EVs', () => {
    // (alice,h1) at 0 and 2, (bob,h2) 1, (carol,h2) 3, (bob,h1) 4; alice at 5 has no host.
    expect(minutes('tag=app json user meta.host | first user host')).toEqual([4, 3, 1, 0]);
    expect(minutes('tag=app json user meta.host | last user host')).toEqual([4, 3, 2, 1]);
  });
});

describe('top and bottom', () => {
  it('keep the N largest or smallest numeric values, descending or ascending', () => {
    expect(ev('tag=app json bytes | top -n 2 bytes', 'bytes')).toEqual(['600', '500']);
    expect(ev('tag=app json bytes | bottom -n 2 bytes', 'bytes')).toEqual(['100', '200']);
    // Default N is 10; the malformed entry has no bytes and is ignored.
    expect(ev('tag=app json bytes | top bytes', 'bytes')).toEqual(['600', '500', '400', '300', '200', '100']);
  });

  it('break ties on the next EV, as the product page example', () => {
    const data = json([
      { foo: 1, bar: 1 },
      { foo: 10, bar: 9 },
      { foo: 10, bar: 200 },
      { foo: 10, bar: 100 },
    ]);
    const q = 'tag=app json foo bar | top -n 2 foo bar';
    expect(result(q, data).map((e) => [e.evs.get('foo'), e.evs.get('bar')])).toEqual([
      [10, 200],
      [10, 100],
    ]);
    expect(result('tag=app json foo bar | bottom -n 2 foo bar', data).map((e) => [e.evs.get('foo'), e.evs.get('bar')])).toEqual([
      [1, 1],
      [10, 9],
    ]);
  });

  it('read DATA by default and ignore values that are not numbers', () => {
    const data = ['7', 'x', '42', '-3'].map((d, i) => ({ ts: T0 + i * MIN, tag: 1, src: '', data: Buffer.from(d), evs: new Map() }));
    expect(result('tag=app top', data).map((e) => e.data.toString())).toEqual(['42', '7', '-3']);
    expect(result('tag=app bottom -n 1', data).map((e) => e.data.toString())).toEqual(['-3']);
  });

  it('equal sort by desc | limit N on the same data', () => {
    const viaSort = ev('tag=app json bytes | sort by bytes desc | limit 3', 'bytes');
    expect(ev('tag=app json bytes | top -n 3 bytes', 'bytes')).toEqual(viaSort);
  });
});

describe('nosort', () => {
  it('changes nothing', () => {
    expect(minutes('tag=app nosort')).toEqual(minutes('tag=app'));
    expect(ev('tag=app json user | nosort | count by user', 'count')).toEqual(['3', '2', '1']);
  });
});

describe('flags and errors name what is refused', () => {
  it.each([
    ['nosort -asc', 'ModuleError: nosort: flag -asc is not supported'],
    ['nosort x', 'ModuleError: nosort: unexpected argument "x"'],
    ['top -n 0 x', 'ModuleError: top: invalid -n "0": a positive integer is needed'],
    ['bottom -n', 'ModuleError: bottom: missing value for flag -n'],
    ['top -maxtracked 5 x', 'ModuleError: top: unknown flag -maxtracked'],
    ['first -maxsize 10 x', 'ModuleError: first: flag -maxsize is not supported'],
    ['last -maxtracked x y', 'ModuleError: last: invalid -maxtracked "x": a positive integer is needed'],
    ['unique -maxsize 10 x', 'ModuleError: unique: flag -maxsize is not supported'],
    ['unique x over 1h', 'ModuleError: unique: "over" time windows are not supported'],
    ['count -maxtracked 0 by x', 'ModuleError: count: invalid -maxtracked "0": a positive integer is needed'],
    ['sum -maxtracked -1 x', 'ModuleError: sum: invalid -maxtracked "-1": a positive integer is needed'],
    ['stats -b count', 'ModuleError: stats: flag -b is not supported'],
    ['stats -maxtracked count', 'ModuleError: stats: invalid -maxtracked "count": a positive integer is needed'],
    ['stats mean(x) by a count(y)', 'ModuleError: stats: a "by" list for each operation is not supported: write one "by" list after all operations'],
    ['limit 5 by x', 'ModuleError: limit: "limit N by X" is not supported'],
    ['sort -maxtracked 5', 'ModuleError: sort: unexpected argument "-maxtracked"'],
  ])('%s', (q, message) => {
    expect(parseError(q)).toBe(message);
  });

  it.each([
    'count -maxtracked 5 by x',
    'mean -maxtracked 5 x by y',
    'stats -maxtracked 5 count sum(x) by y',
    'unique -maxtracked 5 x',
    'first -maxtracked 5',
    'last x',
    'top -n 3 x y',
    'bottom',
    'nosort',
    'stats sum',
  ])('accepts %s', (q) => {
    expect(() => parseQuery(q)).not.toThrow();
  });

  it('stats op without an operand reads DATA, as the page says', () => {
    const data = ['5', '7', 'x'].map((d, i) => ({ ts: T0 + i * MIN, tag: 1, src: '', data: Buffer.from(d), evs: new Map() }));
    expect(ev('tag=app stats sum max', 'sum', data)).toEqual(['12']);
    expect(ev('tag=app stats sum max', 'max', data)).toEqual(['7']);
  });
});
