/** Helpers to read, convert, compare and (de)serialise EVs and entries. */
import { Entry, EVValue, RuntimeContext, SerializedEntry, SerializedEV } from './types';

export const UNIVERSAL_EVS = ['SRC', 'TAG', 'TIMESTAMP', 'DATA'] as const;

/** Formats epoch microseconds as RFC3339 UTC with microsecond precision. */
export function formatTs(us: number): string {
  const ms = Math.floor(us / 1000);
  const micros = ((us % 1_000_000) + 1_000_000) % 1_000_000;
  const iso = new Date(ms).toISOString(); // 2024-01-01T00:00:00.000Z
  return `${iso.slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
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

/** Compares two values: numerically when both are numbers, else as strings. */
export function compareValues(a: EVValue, b: EVValue): number {
  const na = evToNumber(a);
  const nb = evToNumber(b);
  if (na !== null && nb !== null) return na - nb;
  const sa = evToString(a);
  const sb = evToString(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
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

/** Makes an empty output entry for aggregate results. */
export function syntheticEntry(ts: number, evs: Map<string, EVValue>): Entry {
  return { ts, tag: 0, src: '', data: Buffer.alloc(0), evs };
}

/** Re-wraps entry data that lost its Buffer prototype (structured clone to/from a worker thread). */
export function ensureBuffers(entries: Entry[]): Entry[] {
  for (const e of entries) {
    const d = e.data as Uint8Array;
    if (!Buffer.isBuffer(d)) e.data = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  }
  return entries;
}
