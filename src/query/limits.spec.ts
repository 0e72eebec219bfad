/**
 * Memory bounds (issue 16): past its bound every condensing module and renderer ends the search
 * with a LimitError naming the module and the limit, on one indexer and when only the merge of
 * several indexers' partial states goes past it; at the bound the answer is exact.
 */
import { ALL, MIN, RANGE, T0 } from './fixtures.spec-helper';
import { DEFAULT_QUERY_LIMITS, LimitError, QueryLimits, resolveLimits } from './limits';
import { runQueryInMemory } from './memory';
import { RenderResult } from './renderers/renderer';
import { Entry } from './types';

const run = (q: string, limits: Partial<QueryLimits>, indexers = 1, data: Entry[] = ALL): RenderResult => runQueryInMemory(q, data, { ...RANGE, indexers, limits }).result;

function limitError(q: string, limits: Partial<QueryLimits>, indexers = 1, data: Entry[] = ALL): string {
  try {
    run(q, limits, indexers, data);
  } catch (e) {
    if (e instanceof LimitError) return e.message;
    throw e;
  }
  throw new Error(`no limit error: ${q}`);
}

const count = (r: RenderResult) => r.EntryCount;

describe('limits', () => {
  it('default to the product value (1,000,000) and 256 MiB held; bad values fall back to the defaults', () => {
    expect(DEFAULT_QUERY_LIMITS).toEqual({ maxTracked: 1_000_000, sortEntries: 1_000_000, limitEntries: 1_000_000, renderRows: 1_000_000, heldMiB: 256, evalSteps: 100_000 });
    expect(resolveLimits({ maxTracked: 5, sortEntries: 0, renderRows: 1.5 })).toEqual({ ...DEFAULT_QUERY_LIMITS, maxTracked: 5 });
  });

  // app has 3 users (alice, bob, carol), 6 entries with bytes and 7 entries in all.
  it.each([
    ['tag=app json user | count -maxtracked 2 by user', {}, 'count: more than 2 distinct groups (-maxtracked)'],
    ['tag=app json user | count by user', { maxTracked: 2 }, 'count: more than 2 distinct groups (-maxtracked)'],
    ['tag=app json user bytes | sum -maxtracked 2 bytes by user', {}, 'sum: more than 2 distinct groups (-maxtracked)'],
    ['tag=app json user bytes | stats -maxtracked 2 count mean(bytes) by user', {}, 'stats: more than 2 distinct groups (-maxtracked)'],
    ['tag=app json user | stats -maxtracked 2 unique_count(user)', {}, 'stats: more than 2 distinct values in unique_count(user) (-maxtracked)'],
    ['tag=app json user | stats count by user over 1m', { maxTracked: 5 }, 'stats: more than 5 distinct groups (-maxtracked)'],
    ['tag=app json user | unique -maxtracked 2 user', {}, 'unique: more than 2 distinct keys (-maxtracked)'],
    ['tag=app json user | unique user', { maxTracked: 2 }, 'unique: more than 2 distinct keys (-maxtracked)'],
    ['tag=app json user | first -maxtracked 2 user', {}, 'first: more than 2 distinct keys (-maxtracked)'],
    ['tag=app json user | last user', { maxTracked: 1 }, 'last: more than 1 distinct keys (-maxtracked)'],
    ['tag=app sort by src', { sortEntries: 6 }, 'sort: more than 6 entries (SEARCH_SORT_MAX_ENTRIES)'],
    ['tag=app limit 10', { limitEntries: 6 }, 'limit: more than 6 entries (SEARCH_LIMIT_MAX_ENTRIES)'],
    ['tag=app json bytes | top -n 10 bytes', { limitEntries: 5 }, 'top: more than 5 entries (SEARCH_LIMIT_MAX_ENTRIES)'],
    ['tag=app json user | table user', { renderRows: 6 }, 'table: more than 6 rows (SEARCH_RENDER_MAX_ROWS)'],
    ['tag=app json user | count by user | text', { renderRows: 2 }, 'text: more than 2 entries (SEARCH_RENDER_MAX_ROWS)'],
    ['tag=app json user | count by user | wordcloud count', { renderRows: 2 }, 'wordcloud: more than 2 words (SEARCH_RENDER_MAX_ROWS)'],
    ['tag=app json user bytes | stackgraph user bytes bytes', { renderRows: 5 }, 'stackgraph: more than 5 components (SEARCH_RENDER_MAX_ROWS)'],
    ['tag=app json user | chart by user', { renderRows: 2 }, 'chart: more than 2 cells (series x time buckets) (SEARCH_RENDER_MAX_ROWS)'],
  ] as Array<[string, Partial<QueryLimits>, string]>)('%s %j', (q, limits, message) => {
    expect(limitError(q, limits)).toBe(message);
    // Three indexers: each may stay under the bound; the merge of their states does not.
    expect(limitError(q, limits, 3)).toBe(message);
  });

  it('answer exactly at the bound', () => {
    expect(count(run('tag=app json user | count -maxtracked 3 by user', {}))).toBe(3);
    expect(count(run('tag=app json user | stats -maxtracked 3 unique_count(user) count by user', {}, 2))).toBe(3);
    expect(count(run('tag=app json user | unique user', { maxTracked: 3 }, 3))).toBe(3);
    expect(count(run('tag=app sort by src', { sortEntries: 7 }, 2))).toBe(7);
    expect(count(run('tag=app limit 10', { limitEntries: 7 }, 3))).toBe(7);
    // N above the bound fails only when more entries than the bound arrive.
    expect(count(run('tag=app limit 100', { limitEntries: 7 }))).toBe(7);
    expect(count(run('tag=app json user | table user', { renderRows: 7 }))).toBe(7);
    expect(count(run('tag=app json user | count by user | table user count', { renderRows: 3 }))).toBe(3);
  });

  it('bound the estimated memory of the entries a module holds (SEARCH_HOLD_MAX_MB)', () => {
    const big: Entry[] = Array.from({ length: 12 }, (_, i) => ({ ts: T0 + i * MIN, tag: 1, src: '', data: Buffer.alloc(100_000, 97 + i), evs: new Map([['n', i]]) }));
    for (const [q, module] of [
      ['tag=app sort by src', 'sort'],
      ['tag=app unique', 'unique'],
      ['tag=app limit 12', 'limit'],
      ['tag=app first DATA', 'first'],
      ['tag=app top -n 12 n', 'top'],
    ]) {
      expect(limitError(q, { heldMiB: 1 }, 1, big)).toBe(`${module}: more than 1 MiB of entries held (SEARCH_HOLD_MAX_MB)`);
    }
    expect(limitError('tag=app table DATA', { heldMiB: 1 }, 1, big)).toBe('table: more than 1 MiB of rows held (SEARCH_HOLD_MAX_MB)');
    expect(count(run('tag=app limit 5', { heldMiB: 1 }, 1, big))).toBe(5);
    expect(count(run('tag=app sort by src', { heldMiB: 2 }, 1, big))).toBe(12);
  });
});
