/** Helpers to read, convert, compare and (de)serialise EVs and entries. */
import { Entry, EVValue, RuntimeContext, SerializedEntry, SerializedEV } from './types';

/** The last second formatted by formatTs (results and pages hold runs of entries from the same second). */
const lastSecond = { second: Number.NaN, text: '' };

/** Formats epoch microseconds as RFC3339 UTC with microsecond precision. */
export function formatTs(us: number): string {
  const second = Math.floor(us / 1_000_000);
  if (second !== lastSecond.second) {
    lastSecond.second = second;
    lastSecond.text = new Date(second * 1000).toISOString().slice(0, 19); // 2024-01-01T00:00:00
  }
  return `${lastSecond.text}.${String(us - second * 1_000_000).padStart(6, '0')}Z`;
}

/** Reads an EV by name: the entry's own EVs first, then the universal SRC/TAG/TIMESTAMP/DATA. */
export function getEV(e: Entry, name: string, rt: RuntimeContext): EVValue | undefined {
  const v = e.evs.get(name);
  if (v !== undefined) return v;
  switch (name) {
    case 'SRC':
      return e.src;
    case 'TAG':
      return rt.tagName(e.tag);
    case 'TIMESTAMP':
      return formatTs(e.ts);
    case 'DATA':
      return e.data;
    default:
      return undefined;
  }
}

export function evToString(v: EVValue): string {
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

const NUMERIC = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** Number if the value is a number or a string that parses entirely as one, else null. */
export function evToNumber(v: EVValue | undefined): number | null {
  if (v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'boolean') return null;
  const s = evToString(v);
  return NUMERIC.test(s) ? Number(s) : null;
}

/** A value prepared for comparisons: its number (null when it is not one) and its string. */
export interface SortKey {
  num: number | null;
  str: string;
}

export function sortKey(v: EVValue): SortKey {
  return { num: evToNumber(v), str: evToString(v) };
}

/** Numerically when both are numbers, else as strings. */
export function compareSortKeys(a: SortKey, b: SortKey): number {
  if (a.num !== null && b.num !== null) return a.num - b.num;
  return a.str < b.str ? -1 : a.str > b.str ? 1 : 0;
}

/** Compares two values: numerically when both are numbers, else as strings. */
export function compareValues(a: EVValue, b: EVValue): number {
  return compareSortKeys(sortKey(a), sortKey(b));
}

/** Deterministic tie-break between entries: newer first, then src, tag, data. */
export function entryTieBreak(a: Entry, b: Entry): number {
  if (a.ts !== b.ts) return b.ts - a.ts;
  if (a.src !== b.src) return a.src < b.src ? -1 : 1;
  if (a.tag !== b.tag) return a.tag - b.tag;
  return Buffer.compare(a.data, b.data);
}

export function serializeEV(v: EVValue): SerializedEV {
  return Buffer.isBuffer(v) ? { b64: v.toString('base64') } : v;
}

export function deserializeEV(v: SerializedEV): EVValue {
  return typeof v === 'object' ? Buffer.from(v.b64, 'base64') : v;
}

export function serializeEntry(e: Entry): SerializedEntry {
  const evs: Array<[string, SerializedEV]> = [];
  for (const [k, v] of e.evs) evs.push([k, serializeEV(v)]);
  return { ts: e.ts, tag: e.tag, src: e.src, data: e.data.toString('base64'), evs };
}

export function deserializeEntry(s: SerializedEntry): Entry {
  return {
    ts: s.ts,
    tag: s.tag,
    src: s.src,
    data: Buffer.from(s.data, 'base64'),
    evs: new Map(s.evs.map(([k, v]) => [k, deserializeEV(v)])),
  };
}

/** Shallow copy with its own EV map (pipelines mutate `evs`). Also re-wraps a structured-cloned Uint8Array. */
export function cloneEntry(e: Entry): Entry {
  const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data as Uint8Array);
  return { ts: e.ts, tag: e.tag, src: e.src, data, evs: new Map(e.evs) };
}

/** The data of every synthetic entry: empty, so nothing can write to it. */
const NO_DATA = Buffer.alloc(0);

/** Makes an empty output entry for aggregate results. */
export function syntheticEntry(ts: number, evs: Map<string, EVValue>): Entry {
  return { ts, tag: 0, src: '', data: NO_DATA, evs };
}

/** Re-wraps entry data that lost its Buffer prototype (structured clone to/from a worker thread). */
export function ensureBuffers(entries: Entry[]): Entry[] {
  for (const e of entries) {
    const d = e.data as Uint8Array;
    if (!Buffer.isBuffer(d)) e.data = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  }
  return entries;
}
