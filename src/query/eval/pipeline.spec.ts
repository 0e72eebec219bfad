import { ALL, RANGE } from '../fixtures.spec-helper';
import { runQueryInMemory } from '../memory';

/** Table rows of a query over the fixtures (one indexer: entries arrive newest first). */
function table(q: string): string[][] {
  const r = runQueryInMemory(q, ALL, { ...RANGE, indexers: 1 }).result;
  if (r.kind !== 'table') throw new Error(`not a table: ${r.kind}`);
  return r.Entries.Rows.map((row) => row.Row);
}

// tag app, newest first: 6m malformed | 5m alice 200 600 | 4m bob 200 500 | 3m carol 200 400
//                        2m alice 500 300 | 1m bob 404 200 | 0m alice 200 100
describe('eval in pipelines (fixtures, hand-computed)', () => {
  it('filters with || (which is not a pipe)', () => {
    expect(table('tag=app json status user | eval status >= 500 || user == "bob" | table user status')).toEqual([
      ['bob', '200'],
      ['alice', '500'],
      ['bob', '404'],
    ]);
  });

  it('the brief query shape: filter, then count by', () => {
    expect(table('tag=app json status meta.host as host | eval status >= 404 | count by host | table host count')).toEqual([
      ['h1', '1'],
      ['h2', '1'],
    ]);
    expect(table('tag=app json status user | (status == 200) | count by user | table user count')).toEqual([
      ['alice', '2'],
      ['bob', '1'],
      ['carol', '1'],
    ]);
  });

  it('assignments create EVs for later modules; no value leaves the EV out', () => {
    expect(table('tag=app json user bytes | eval kb = bytes / 100; big = bytes > 250; | table user kb big')).toEqual([
      ['', '', 'false'],
      ['alice', '6', 'true'],
      ['bob', '5', 'true'],
      ['carol', '4', 'true'],
      ['alice', '3', 'true'],
      ['bob', '2', 'false'],
      ['alice', '1', 'false'],
    ]);
    expect(table('tag=app json user bytes | eval kb = bytes / 100.0 | sum kb by user | table user sum')).toEqual([
      ['alice', '10'],
      ['bob', '7'],
      ['carol', '4'],
    ]);
  });

  it('switch classifies; missing status falls to default', () => {
    const q =
      'tag=app json status | eval switch (status) { case 200: class = "ok"; break; case 404: class = "missing"; break; default: class = "error"; } | count by class | table class count';
    expect(table(q)).toEqual([
      ['error', '2'],
      ['missing', '1'],
      ['ok', '4'],
    ]);
  });

  it('persistent var and map across entries (one indexer, newest first)', () => {
    expect(table('tag=app json user | eval var n = 0; n++; seq = n; | table user seq')).toEqual([
      ['', '1'],
      ['alice', '2'],
      ['bob', '3'],
      ['carol', '4'],
      ['alice', '5'],
      ['bob', '6'],
      ['alice', '7'],
    ]);
    const running =
      'tag=app json user bytes | eval map total; if (has_key(total, user)) total[user] = total[user] + bytes; else total[user] = bytes; t = total[user]; | table user t';
    expect(table(running)).toEqual([
      ['', ''],
      ['alice', '600'],
      ['bob', '500'],
      ['carol', '400'],
      ['alice', '900'],
      ['bob', '700'],
      ['alice', '1000'],
    ]);
  });

  it('kv text, SRC as an IP, TIMESTAMP as a time', () => {
    expect(table('tag=syslog kv level user | eval level == "critical" && user != "bob" | table user')).toEqual([['alice']]);
    expect(table('tag=app eval ip_in_cidr(SRC, "10.0.0.0/31") | count | table count')).toEqual([['3']]);
    expect(table('tag=app eval time("2024-01-01T00:10:00Z") - TIMESTAMP > duration("7m") | count | table count')).toEqual([['3']]);
  });

  it('runs after a condensing module too (at the collapse)', () => {
    expect(table('tag=app json user | count by user | eval count > 1 | table user count')).toEqual([
      ['alice', '3'],
      ['bob', '2'],
    ]);
  });

  it('a runtime limit ends the search with the eval error', () => {
    expect(() => table('tag=app eval for (;;) { x = 1; } | table x')).toThrow(
      'eval: the program ran more than 100000 steps on one entry (the per-entry step budget, EVAL_MAX_STEPS); does a loop never end?',
    );
  });

  it('the step budget is the search limit EVAL_MAX_STEPS passes in (limits.evalSteps)', () => {
    const run = (evalSteps: number) =>
      runQueryInMemory('tag=app eval for (i = 0; i < 200; i++) { x = i; } | count | table count', ALL, { ...RANGE, indexers: 1, limits: { evalSteps } });
    expect(() => run(500)).toThrow('more than 500 steps on one entry');
    expect(run(5000).result.kind).toBe('table');
  });
});
