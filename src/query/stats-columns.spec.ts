/**
 * Issue 24, item 3: `stats` gives every column it was asked for. Operators over TIMESTAMP are
 * computed (times out), and a column no entry had a value for is there, empty, with a warning.
 */
import { ALL, RANGE, T0, MIN } from './fixtures.spec-helper';
import { runQueryInMemory } from './memory';
import { RenderResult } from './renderers/renderer';
import { parseQuery } from './parser';
import { formatTs } from './values';

const run = (q: string, indexers = 2): RenderResult => runQueryInMemory(q, ALL, { ...RANGE, indexers }).result;

function table(q: string, indexers = 2): { Columns: string[]; Rows: string[][]; Warnings?: string[] } {
  const r = run(q, indexers);
  if (r.kind !== 'table') throw new Error(`not a table: ${r.kind}`);
  return { Columns: r.Entries.Columns, Rows: r.Entries.Rows.map((x) => x.Row), ...(r.Warnings ? { Warnings: r.Warnings } : {}) };
}

describe('stats over TIMESTAMP', () => {
  it('computes min, max and mean of the entries times, as times', () => {
    expect(table('tag=app stats min(TIMESTAMP) max(TIMESTAMP) mean(TIMESTAMP) count | table')).toEqual({
      Columns: ['min', 'max', 'mean', 'count'],
      Rows: [[formatTs(T0), formatTs(T0 + 6 * MIN), formatTs(T0 + 3 * MIN), '7']],
    });
  });

  it('does so per group and merged across indexers like on one', () => {
    const q = 'tag=app json user | stats min(TIMESTAMP) as first max(TIMESTAMP) as last by user | table user first last';
    expect(table(q, 3)).toEqual(table(q, 1));
    expect(table(q).Rows).toEqual([
      ['alice', formatTs(T0), formatTs(T0 + 5 * MIN)],
      ['bob', formatTs(T0 + 1 * MIN), formatTs(T0 + 4 * MIN)],
      ['carol', formatTs(T0 + 3 * MIN), formatTs(T0 + 3 * MIN)],
    ]);
  });

  it('refuses at parse time what times cannot give (sum, total, stddev, variance)', () => {
    expect(() => parseQuery('tag=app stats sum(TIMESTAMP)')).toThrow(
      'ModuleError: stats: sum(TIMESTAMP) is not supported: times can be counted (count, unique_count), compared (min, max) and averaged (mean)',
    );
    expect(() => parseQuery('tag=app stddev TIMESTAMP')).toThrow('ModuleError: stddev: stddev(TIMESTAMP) is not supported');
  });
});

describe('stats columns no entry had a value for', () => {
  it('are present and empty, with a warning', () => {
    expect(table('tag=app json bytes | stats min(nosuch) max(bytes) count | table')).toEqual({
      Columns: ['min', 'max', 'count'],
      Rows: [['', '600', '7']],
      Warnings: ['stats: no entry had a value for min(nosuch); its column min is empty'],
    });
  });

  it('give one empty row when nothing at all had a value (ungrouped)', () => {
    expect(table('tag=app stats min(nosuch) | table')).toEqual({
      Columns: ['min'],
      Rows: [['']],
      Warnings: ['stats: no entry had a value for min(nosuch); its column min is empty'],
    });
  });

  it('are empty in the groups that lacked the value, warned about only when every group did', () => {
    expect(table('tag=app json user bytes | stats mean(bytes) by user | table user mean')).toEqual({
      Columns: ['user', 'mean'],
      Rows: [
        ['alice', String(1000 / 3)],
        ['bob', '350'],
        ['carol', '400'],
      ],
    });
    const r = run('tag=app json user status | eval if (user == "carol") { b = 1; } | stats max(b) count by user | text', 1);
    if (r.kind !== 'entries') throw new Error(r.kind);
    expect(r.Entries.map((e) => [e.evs.get('user'), e.evs.get('max'), e.evs.get('count')])).toEqual([
      ['alice', '', 3],
      ['bob', '', 2],
      ['carol', 1, 1],
    ]);
    expect(r.Warnings).toBeUndefined();
  });

  it('warn from the math modules too', () => {
    expect(run('tag=app mean nosuch | text').Warnings).toEqual(['mean: no entry had a value for mean(nosuch); its column mean is empty']);
  });
});
