/** Running queries over small hand-written data sets, for the extraction and formatting modules' tests. */
import { runQueryInMemory } from '../memory';
import { parseQuery } from '../parser';
import { RenderResult } from '../renderers/renderer';
import { Entry, EVValue, ParseError } from '../types';
import { evToString } from '../values';

export const T0 = Date.UTC(2024, 0, 1) * 1000;
const SEC = 1_000_000;
export const RANGE = {
  start: new Date(T0 / 1000 - 3600_000),
  end: new Date(T0 / 1000 + 3600_000),
  now: new Date(T0 / 1000 + 3600_000),
  tagNames: { 0: 'default', 1: 'app' },
};

/** One entry per line (tag default), one second apart, the first line newest; sources as given or 10.0.0.1. */
export function linesToEntries(lines: Array<string | Buffer>, srcs: string[] = []): Entry[] {
  return lines.map((l, i) => ({
    ts: T0 + (lines.length - i) * SEC,
    tag: 0,
    src: srcs[i] ?? '10.0.0.1',
    data: Buffer.isBuffer(l) ? l : Buffer.from(l),
    evs: new Map<string, EVValue>(),
  }));
}

export function run(q: string, entries: Entry[], indexers = 1, batchSize = 1000): RenderResult {
  return runQueryInMemory(q, entries, { ...RANGE, indexers, batchSize }).result;
}

export function outEntries(q: string, entries: Entry[]): Entry[] {
  const r = run(q, entries);
  if (r.kind !== 'entries') throw new Error(`not an entries result: ${r.kind}`);
  return r.Entries;
}

/** The named EVs of each surviving entry (newest first), as raw values (undefined when absent). */
export function values(q: string, entries: Entry[], names: string[]): Array<Array<EVValue | undefined>> {
  return outEntries(q, entries).map((e) => names.map((n) => e.evs.get(n)));
}

/** The named EVs as strings. */
export function strings(q: string, entries: Entry[], names: string[]): Array<Array<string | undefined>> {
  return values(q, entries, names).map((row) => row.map((v) => (v === undefined ? undefined : evToString(v))));
}

/** Which input lines (0-based, as given) survive. */
export function kept(q: string, entries: Entry[]): number[] {
  const byTs = new Map(entries.map((e, i) => [e.ts, i]));
  return outEntries(q, entries)
    .map((e) => byTs.get(e.ts)!)
    .sort((a, b) => a - b);
}

export function parseError(q: string): string {
  try {
    parseQuery(q);
  } catch (e) {
    if (e instanceof ParseError) return e.message;
    throw e;
  }
  throw new Error(`query parsed: ${q}`);
}

/** Comparable form of a result (JSON, with Buffers as base64). */
function normalize(r: RenderResult): unknown {
  if (r.kind === 'entries') {
    return {
      count: r.EntryCount,
      entries: r.Entries.map((e) => [e.ts, e.tag, e.src, e.data.toString('base64'), [...e.evs].map(([k, v]) => [k, Buffer.isBuffer(v) ? v.toString('base64') : v])]),
    };
  }
  return JSON.parse(JSON.stringify(r));
}

/** The answer over 2 and 3 indexers, in batches of 1 and 1000, equals the one-indexer answer. */
export function expectDistributedEqual(q: string, entries: Entry[]): void {
  const single = normalize(run(q, entries));
  for (const indexers of [2, 3]) {
    for (const batchSize of [1, 1000]) expect(normalize(run(q, entries, indexers, batchSize))).toEqual(single);
  }
}
