import fc from 'fast-check';
import { ALL, RANGE, T0, SEC } from './fixtures.spec-helper';
import { runQueryInMemory } from './memory';
import { compileQuery, PartialState } from './planner';
import { RenderResult } from './renderers/renderer';
import { Entry } from './types';
import { cloneEntry, evToString, formatTs } from './values';

/** Comparable form of a result (floats rounded: partial sums may add up in another order). */
function normalize(r: RenderResult): unknown {
  const round = (x: unknown) => (typeof x === 'number' ? Number(x.toPrecision(12)) : x);
  if (r.kind === 'entries') {
    return {
      count: r.EntryCount,
      entries: r.Entries.map((e) => [formatTs(e.ts), e.tag, e.src, e.data.toString('base64'), [...e.evs].map(([k, v]) => [k, round(v)])]),
    };
  }
  return JSON.parse(JSON.stringify(r, (_k, v: unknown) => round(v)));
}

const QUERIES = [
  'tag=app',
  'tag=* grep -v alice | json user',
  'tag=syslog kv level=="critical" user',
  'tag=app count',
  'tag=* count by TAG',
  'tag=app json user bytes | sum bytes by user',
  'tag=app json bytes | mean bytes',
  'tag=app json bytes | stddev bytes',
  'tag=app json bytes | variance bytes',
  'tag=app json bytes | min bytes | table',
  'tag=app json user bytes meta.host | stats count sum(bytes) mean(bytes) as avg max(bytes) unique_count(user) by host',
  'tag=app json bytes user | stats sum(bytes) unique_count(user) over 2m',
  'tag=app json bytes | sort by bytes asc',
  'tag=* sort by src',
  'tag=* limit 5',
  'tag=* limit 2 6',
  'tag=app json user | unique user',
  'tag=* unique SRC',
  'tag=app json user | count by user | sort by count desc | limit 2 | table user count',
  'tag=app json user | stats count by user over 2m | chart count by user limit 2',
  'tag=* chart',
  'tag=app json bytes | mean bytes | gauge mean',
  'tag=* count | numbercard count',
  'tag=csv fields [0] as user [3] as code | table user code',
  'tag=csv csv -s [0] [3]!="200" as code | table 0 code',
  'tag=* src ~ 10.0.1.0/24 | subnet SRC /16 as net | count by net',
  'tag=app json user | upper user | alias user u | length -t n u | count by u,n | table u n count',
  'tag=syslog kv -s user msg | require -s msg | lower msg | table user msg',
  'tag=* syslog Message | cef msg | xml a.b | grep -i -s ALICE | table Message',
  'tag=app json user | lookup -r users user user (team level as lvl) | count by team | table team count',
  'tag=app json user | lookup -s -r users user user (team level) | stats count by team level',
  'tag=app json user | lookup -v -r users user user () | count',
  'tag=app json status user | eval status >= 500 || user == "bob"',
  'tag=app json status meta.host as host | eval status >= 404 | count by host | table host count',
  'tag=app json user bytes | eval kb = bytes / 100.0; big = bytes > 250; | sum kb by big',
  'tag=app json user status | (status == 200) | count by user',
  'tag=app json user | count by user | eval count > 1 | table user count',
  'tag=app json user meta.host | first user host',
  'tag=app json user | last -maxtracked 3 user | table user TIMESTAMP',
  'tag=* first',
  'tag=app json bytes | top -n 3 bytes',
  'tag=app json bytes status | bottom -n 4 status bytes | table status bytes',
  'tag=app nosort | json user | count -maxtracked 3 by user',
  'tag=app json user | unique -maxtracked 3 user | table user',
  'tag=app json user status | count by user status | stackgraph user status count',
  'tag=app json user meta.host | stats count by user host | wordcloud count by host',
  'tag=* hex',
];

describe('distributed execution equals single-indexer execution', () => {
  it.each(QUERIES)('%s', (q) => {
    const single = normalize(runQueryInMemory(q, ALL, { ...RANGE, indexers: 1 }).result);
    for (const indexers of [2, 3]) {
      for (const batchSize of [1, 2, 1000]) {
        expect(normalize(runQueryInMemory(q, ALL, { ...RANGE, indexers, batchSize }).result)).toEqual(single);
      }
    }
  });

  it('does not mutate the caller entries', () => {
    runQueryInMemory('tag=app json user | count by user', ALL, { ...RANGE, indexers: 2 });
    expect(ALL.every((e) => e.evs.size === 0)).toBe(true);
  });

  it('stats merge is exact for any split of the data (property)', () => {
    const entryArb = fc.record({ sec: fc.integer({ min: 0, max: 3599 }), v: fc.integer({ min: -1000, max: 1000 }), k: fc.constantFrom('a', 'b', 'c') });
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), (rows, indexers) => {
        const data: Entry[] = rows.map((r) => ({ ts: T0 + r.sec * SEC, tag: 1, src: r.k, data: Buffer.from(`k=${r.k} v=${r.v}`), evs: new Map() }));
        const q = 'tag=app kv k v | stats count sum(v) min(v) max(v) mean(v) unique_count(v) by k over 10m';
        const one = normalize(runQueryInMemory(q, data, { ...RANGE, indexers: 1 }).result);
        const many = normalize(runQueryInMemory(q, data, { ...RANGE, indexers }).result);
        expect(many).toEqual(one);
        const lim = 'tag=app kv v | unique v | limit 5';
        expect(normalize(runQueryInMemory(lim, data, { ...RANGE, indexers }).result)).toEqual(normalize(runQueryInMemory(lim, data, { ...RANGE, indexers: 1 }).result));
      }),
      { numRuns: 60 },
    );
  });
});

const APP_CAROL = ALL[3].data.toString();

describe('compileQuery execution API', () => {
  const app = () => ALL.filter((e) => e.tag === 1).map(cloneEntry);

  it('streams a non-condensing pipeline batch by batch', () => {
    const c = compileQuery('tag=app json user=="alice"', RANGE);
    expect(c.streaming).toBe(true);
    expect(c.collapsingIndex).toBe(1);
    const runner = c.createDistributed();
    const coll = c.createCollapser({ retainEntries: false });
    const entries = app();
    const first = runner.push(entries.slice(0, 3));
    const second = runner.push(entries.slice(3));
    expect(first.map((e) => evToString(e.evs.get('user')!))).toEqual(['alice', 'alice']);
    expect(second).toHaveLength(1);
    expect(runner.finish()).toBeNull();
    expect(coll.addEntries(first)).toBe(first);
    coll.addEntries(second);
    expect(coll.finish()).toEqual({ kind: 'entries', EntryCount: 3, Entries: [] });
    expect(() => coll.addPartial({ module: 'count', index: 0, state: {} })).toThrow();
  });

  it('sends a JSON partial state for condensing pipelines and merges at the web server', () => {
    const c = compileQuery('tag=app json bytes | mean bytes | gauge mean', RANGE);
    expect(c.streaming).toBe(false);
    expect(c.collapsingIndex).toBe(1);
    const entries = app();
    const parts: PartialState[] = [entries.slice(0, 2), entries.slice(2)].map((shard) => {
      const r = c.createDistributed();
      expect(r.push(shard)).toEqual([]);
      return JSON.parse(JSON.stringify(r.finish()));
    });
    expect(parts[0]).toMatchObject({ module: 'mean', index: 1 });
    // One string, columns inside: only the arrays `mean` needs (count and sum).
    expect(JSON.parse((parts[0].state as { packed: string }).packed)).toEqual({ by: [], ts: [T0 + 60 * SEC], cols: [{ n: [2], s: [300] }] });
    const coll = c.createCollapser();
    parts.forEach((p) => coll.addPartial(p));
    expect(() => coll.addEntries([])).toThrow();
    expect(coll.finish()).toEqual({ kind: 'gauge', EntryCount: 1, Entries: [{ Name: 'mean', Magnitude: 350, Min: 0, Max: 500 }] });
  });

  it('keeps the entries of a condensing query rendered as text even without retainEntries', () => {
    const c = compileQuery('tag=app count', RANGE);
    const runner = c.createDistributed();
    runner.push(app());
    const coll = c.createCollapser({ retainEntries: false });
    coll.addPartial(runner.finish()!);
    const r = coll.finish();
    expect(r.kind === 'entries' && r.Entries.map((e) => e.evs.get('count'))).toEqual([7]);
  });

  it('accepts entries whose data was structured-cloned to a Uint8Array', () => {
    const c = compileQuery('tag=app grep carol', RANGE);
    const cloned = app().map((e) => ({ ...e, data: new Uint8Array(e.data) as Buffer }));
    const out = c.createDistributed().push(cloned);
    expect(out.map((e) => Buffer.isBuffer(e.data) && e.data.toString())).toEqual([APP_CAROL]);
  });

  it('keeps unique_count sets and limit tops in partial states', () => {
    const c = compileQuery('tag=app json user | stats unique_count(user)', RANGE);
    const r = c.createDistributed();
    r.push(app());
    const st = JSON.parse((r.finish()!.state as { packed: string }).packed) as { cols: Array<{ u: string[][] }> };
    expect(st.cols[0].u[0].sort()).toEqual(['alice', 'bob', 'carol']);
    const l = compileQuery('tag=app limit 2', RANGE).createDistributed();
    l.push(app());
    const ls = l.finish()!.state as { count: number; chunks: string[] };
    expect(ls.count).toBe(2);
    expect((JSON.parse(ls.chunks[0]) as Array<{ ts: number }>).map((e) => e.ts)).toEqual([T0 + 360 * SEC, T0 + 300 * SEC]);
  });
});
