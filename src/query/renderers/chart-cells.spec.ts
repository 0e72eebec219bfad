/**
 * The chart combines cells as entries arrive (chart-cells.ts): its result must equal the one
 * computed from every entry at the end (the previous implementation, kept here as the reference).
 */
import fc from 'fast-check';
import { RANGE } from '../fixtures.spec-helper';
import { runQueryInMemory } from '../memory';
import { Entry } from '../types';
import { formatTs } from '../values';

const S = 1_000_000;
const NICE = [1, 5, 10, 30, 60, 300, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 7 * 86400].map((s) => s * S);

/** Reference: buckets from every distinct time, then one pass over the entries (ops: count and v, by k). */
function reference(entries: Array<{ ts: number; k: string; v: number }>, op: 'count' | 'v') {
  const distinct = [...new Set(entries.map((e) => e.ts))].sort((a, b) => a - b);
  let key = (ts: number) => ts;
  let buckets = distinct;
  if (distinct.length > 100) {
    const span = distinct[distinct.length - 1] - distinct[0];
    const w = NICE.find((x) => span / x < 100)!;
    key = (ts) => Math.floor(ts / w) * w;
    buckets = [];
    for (let b = Math.floor(distinct[0] / w) * w; b <= distinct[distinct.length - 1]; b += w) buckets.push(b);
  }
  const cells = new Map<string, Map<number, { v: number; n: number }>>();
  for (const e of entries) {
    const x = op === 'count' ? 1 : e.v;
    const s = cells.get(e.k) ?? new Map();
    cells.set(e.k, s);
    const c = s.get(key(e.ts)) ?? { v: 0, n: 0 };
    s.set(key(e.ts), { v: c.v + x, n: c.n + 1 });
  }
  // a bucket without entries: 0 for a count, no value (null) for a mean
  const fin = (c?: { v: number; n: number }) => (!c ? (op === 'count' ? 0 : null) : op === 'count' ? c.v : c.v / c.n);
  const total = (k: string) => [...cells.get(k)!.values()].reduce((t, c) => t + Math.abs(fin(c)!), 0);
  const names = [...cells.keys()].sort((a, b) => total(b) - total(a) || (a < b ? -1 : a > b ? 1 : 0));
  return { Names: names, Values: buckets.map((b) => ({ TS: formatTs(b), Data: names.map((n) => fin(cells.get(n)!.get(b))) })) };
}

const T = RANGE.start.getTime() * 1000;
const round = (x: unknown) => JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(10)) : v)));

describe('chart cells', () => {
  it('equal the chart of every entry computed at the end, whatever the order and the span (property)', () => {
    const rowArb = fc.record({ at: fc.integer({ min: 0, max: 7199 }), k: fc.constantFrom('a', 'b', 'c'), v: fc.integer({ min: -50, max: 50 }) });
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 400 }), fc.constantFrom(1, 7, 61, 3600), fc.integer({ min: 1, max: 3 }), (rows, scale, indexers) => {
        // `scale` seconds per step: spans from 2 hours to the range's edge in seconds.
        const entries = rows.map((r) => ({ ts: T + Math.min(r.at * scale, 7199) * S, k: r.k, v: r.v }));
        const data: Entry[] = entries.map((e) => ({ ts: e.ts, tag: 1, src: '', data: Buffer.from(`k=${e.k} v=${e.v}`), evs: new Map() }));
        for (const op of ['count', 'v'] as const) {
          const r = runQueryInMemory(`tag=app kv k v | chart ${op} by k`, data, { ...RANGE, indexers }).result;
          expect(r.kind === 'chart' && round(r.Entries)).toEqual(round(reference(entries, op)));
        }
      }),
      { numRuns: 80 },
    );
  });

  it('uses whole weeks for spans of 700 days and more', () => {
    const day = 86400 * S;
    const start = new Date(0);
    const end = new Date(1000 * 86400 * 1000);
    const data: Entry[] = Array.from({ length: 200 }, (_, i) => ({ ts: i * 5 * day, tag: 1, src: '', data: Buffer.from('x'), evs: new Map() }));
    const r = runQueryInMemory('tag=app chart', data, { start, end, tagNames: { 1: 'app' } }).result;
    if (r.kind !== 'chart') throw new Error('kind');
    // 995 days / 99 = 10.05 days: 2 weeks a bucket, from day 0 (a Thursday, epoch-aligned).
    expect(r.Entries.Values[0]).toEqual({ TS: formatTs(0), Data: [3] });
    expect(r.Entries.Values[1]).toEqual({ TS: formatTs(14 * day), Data: [3] });
    expect(r.Entries.Values.reduce((t, v) => t + (v.Data[0] ?? 0), 0)).toBe(200);
  });
});
