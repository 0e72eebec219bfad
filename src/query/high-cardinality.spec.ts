/**
 * Aggregations over very many groups (issue 13 item 2): the partial/merge path and the renderers
 * must not pass an unbounded array as call arguments (`push(...rows)` overflows the stack).
 */
import { compileQuery } from './planner';
import { Entry } from './types';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const RANGE = { start: new Date(T0 / 1000), end: new Date(T0 / 1000 + 3600_000), tagNames: { 1: 'x' } };

const NO_DATA = Buffer.alloc(0);

/** Entries of tag x with keys `k` = key<from>..key<to - 1>, already extracted (as a worker's kv would). */
function keyBatch(from: number, to: number): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i < to; i++) out.push({ ts: T0 + i, tag: 1, src: '', data: NO_DATA, evs: new Map([['k', `key${i}`]]) });
  return out;
}

/** Two simulated indexers, each with half the keys, their partial states JSON round-tripped. */
function runOverIndexers(query: string, keys: number) {
  const compiled = compileQuery(query, RANGE);
  const collapser = compiled.createCollapser();
  for (const [from, to] of [[0, keys / 2], [keys / 2, keys]]) {
    const runner = compiled.createDistributed();
    for (let i = from; i < to; i += 5000) runner.push(keyBatch(i, Math.min(to, i + 5000)));
    collapser.addPartial(JSON.parse(JSON.stringify(runner.finish())));
  }
  return collapser.finish();
}

describe('high-cardinality aggregations', () => {
  it('count by over 1,000,000 keys merges and renders a table of every key', () => {
    const started = Date.now();
    const r = runOverIndexers('tag=x count by k | table k count', 1_000_000);
    if (r.kind !== 'table') throw new Error(`kind ${r.kind}`);
    expect(r.EntryCount).toBe(1_000_000);
    expect(r.Entries.Columns).toEqual(['k', 'count']);
    expect(r.Entries.Rows).toHaveLength(1_000_000);
    expect(r.Entries.Rows[0].Row).toEqual(['key0', '1']);
    expect(r.Entries.Rows[999_999].Row).toEqual(['key999999', '1']);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it.each([
    ['text', 'tag=x count by k | text'],
    ['chart', 'tag=x count by k | chart count'],
    ['sort', 'tag=x count by k | sort by k asc | table k count'],
    ['limit', 'tag=x count by k | limit 200000 | table k count'],
  ])('%s after 200,000 groups', (_name, query) => {
    expect(runOverIndexers(query, 200_000).EntryCount).toBe(200_000);
  });
});
