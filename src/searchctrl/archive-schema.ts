/** Strict shape checks for the contents of a search archive (see archive.ts). */
import { refusal } from '../common/errors/app-error';
import { isDownloadFormat, isPointmapEntries, isStackgraphEntries, RESULT_KINDS } from '../query';
import type { DownloadFormat, SearchEntry } from '../query';
import type { ResultKind, StoredResult } from './render-store';

export const ARCHIVE_FORMAT = 'search-archive';
export const ARCHIVE_VERSION = 1;
const MAX_STR = 65536;

export interface ArchiveManifest {
  Format: string;
  Version: number;
  UserQuery: string;
  EffectiveQuery: string;
  StartRange: string;
  EndRange: string;
  Started: string;
  Finished: string;
  RenderModule: string;
  RenderCmd: string;
  DownloadFormats: DownloadFormat[];
  CollapsingIndex: number;
  QueryTimeSpecified: boolean;
  Name: string;
  Metadata: unknown;
  Kind: ResultKind;
  /** Entries the renderer received. */
  EntryCount: number;
  /** Lines of entries.jsonl. */
  StoredEntries: number;
  OverLimit: boolean;
  Files: Record<string, number>;
}

const bad = (why: string) => refusal('INVALID_ARCHIVE', why);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown, max = MAX_STR): v is string => typeof v === 'string' && v.length <= max;
const isInt = (v: unknown, max = Number.MAX_SAFE_INTEGER): v is number => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max;
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const TS_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** RFC3339(Nano) -> epoch µs, or undefined. */
export function parseTsMicros(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = TS_RE.exec(v);
  if (!m) return undefined;
  const ms = Date.parse(m[1] + m[3]);
  if (Number.isNaN(ms)) return undefined;
  return ms * 1000 + Number((m[2] ?? '').padEnd(6, '0').slice(0, 6));
}

const isTs = (v: unknown): v is string => parseTsMicros(v) !== undefined;

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw bad(`${what} is not valid JSON`);
  }
}

export function validateManifest(text: string): ArchiveManifest {
  const m = parseJson(text, 'manifest.json');
  if (!isObj(m)) throw bad('manifest.json must be an object');
  if (m.Format !== ARCHIVE_FORMAT || m.Version !== ARCHIVE_VERSION) throw bad(`unknown format (want ${ARCHIVE_FORMAT} version ${ARCHIVE_VERSION})`);
  const strings = ['UserQuery', 'EffectiveQuery', 'RenderModule', 'RenderCmd', 'Name'] as const;
  for (const k of strings) if (!isStr(m[k])) throw bad(`manifest ${k} must be a string`);
  for (const k of ['StartRange', 'EndRange', 'Started', 'Finished'] as const) if (!isTs(m[k])) throw bad(`manifest ${k} must be a timestamp`);
  if (!isStr(m.RenderModule, 64) || !/^[a-z0-9]+$/.test(m.RenderModule as string)) throw bad('manifest RenderModule is invalid');
  if (!Array.isArray(m.DownloadFormats) || !m.DownloadFormats.every((f) => typeof f === 'string' && isDownloadFormat(f))) throw bad('manifest DownloadFormats is invalid');
  if (!isInt(m.CollapsingIndex, 1000)) throw bad('manifest CollapsingIndex is invalid');
  if (typeof m.QueryTimeSpecified !== 'boolean' || typeof m.OverLimit !== 'boolean') throw bad('manifest flags must be booleans');
  if (!RESULT_KINDS.includes(m.Kind as ResultKind)) throw bad('manifest Kind is invalid');
  if (!isInt(m.EntryCount) || !isInt(m.StoredEntries)) throw bad('manifest entry counts are invalid');
  if (!isObj(m.Files) || !Object.entries(m.Files).every(([k, v]) => ['entries.jsonl', 'result.json'].includes(k) && isInt(v))) throw bad('manifest Files is invalid');
  if (Object.keys(m.Files).length !== 1) throw bad('manifest Files must name exactly one data file');
  return m as unknown as ArchiveManifest;
}

/** One line of entries.jsonl -> canonical JSON and its timestamp. */
export function validateEntryLine(line: string, n: number): { canonical: string; tsUs: number } {
  const e = parseJson(line, `entry ${n}`);
  const fail = () => bad(`entry ${n} is not a search entry`);
  if (!isObj(e)) throw fail();
  const tsUs = parseTsMicros(e.TS);
  if (tsUs === undefined || !isStr(e.SRC, 64) || !isInt(e.Tag, 65535) || !isStr(e.Data, Number.MAX_SAFE_INTEGER) || !/^[A-Za-z0-9+/]*={0,2}$/.test(e.Data as string)) throw fail();
  if (!Array.isArray(e.Enumerated) || e.Enumerated.length > 1024) throw fail();
  const evs = e.Enumerated.map((ev) => {
    if (!isObj(ev) || !isStr(ev.Name, 1024) || !isStr(ev.ValueStr) || !isObj(ev.Value) || !isInt(ev.Value.Type, 65535) || !isStr(ev.Value.Data)) throw fail();
    return { Name: ev.Name, ValueStr: ev.ValueStr, Value: { Type: ev.Value.Type, Data: ev.Value.Data } };
  });
  const entry: SearchEntry = { TS: e.TS as string, SRC: e.SRC as string, Tag: e.Tag as number, Data: e.Data as string, Enumerated: evs };
  return { canonical: JSON.stringify(entry), tsUs };
}

const badResult = () => bad('result.json does not match its kind');
const str = (v: unknown): string => {
  if (!isStr(v)) throw badResult();
  return v;
};

/**
 * The elements of each condensed kind's `Entries`, checked and copied to canonical form one at a
 * time (an import streams them: see archive.ts). Table and chart `Entries` are objects of two
 * arrays; gauge, stackgraph and pointmap `Entries` are one array.
 */
export const RESULT_OBJECT_ELEMENTS = {
  table: {
    Columns: str,
    Rows: (row: unknown) => {
      if (!isObj(row) || !isStr(row.TS) || !Array.isArray(row.Row) || !row.Row.every((c) => isStr(c))) throw badResult();
      return { TS: row.TS, Row: row.Row as string[] };
    },
  },
  chart: {
    Names: str,
    Values: (v: unknown) => {
      if (!isObj(v) || !isStr(v.TS) || !Array.isArray(v.Data) || !v.Data.every(isNum)) throw badResult();
      return { TS: v.TS, Data: v.Data as number[] };
    },
  },
} as const;

export const RESULT_ARRAY_ELEMENT = {
  gauge: (g: unknown) => {
    if (!isObj(g) || !isStr(g.Name) || !isNum(g.Magnitude) || !isNum(g.Min) || !isNum(g.Max)) throw badResult();
    return { Name: g.Name, Magnitude: g.Magnitude, Min: g.Min, Max: g.Max };
  },
  stackgraph: (e: unknown) => {
    if (!isStackgraphEntries([e])) throw badResult();
    const s = e as { Key: string; Values: Array<{ Label: string; Value: number }> };
    return { Key: s.Key, Values: s.Values.map((v) => ({ Label: v.Label, Value: v.Value })) };
  },
  pointmap: (e: unknown) => {
    if (!isPointmapEntries([e])) throw badResult();
    const p = e as { Loc: { Lat: number; Long: number }; Metadata?: Array<Record<string, unknown>> };
    return { Loc: { Lat: p.Loc.Lat, Long: p.Loc.Long }, ...(p.Metadata ? { Metadata: p.Metadata.map((kv) => ({ ...kv })) } : {}) };
  },
} as const;

export type ObjectResultKind = keyof typeof RESULT_OBJECT_ELEMENTS;
export type ArrayResultKind = keyof typeof RESULT_ARRAY_ELEMENT;
export const isObjectResultKind = (k: ResultKind): k is ObjectResultKind => k in RESULT_OBJECT_ELEMENTS;

/** result.json of a condensing search, parsed whole (small results; imports stream, see archive.ts). */
export function validateResult(text: string, kind: ResultKind): StoredResult {
  const r = parseJson(text, 'result.json');
  if (!isObj(r) || r.kind !== kind || !isInt(r.EntryCount)) throw badResult();
  const E = r.Entries;
  if (kind === 'entries') throw badResult(); // entries travel in entries.jsonl
  if (isObjectResultKind(kind)) {
    const elements = RESULT_OBJECT_ELEMENTS[kind] as Record<string, (v: unknown) => unknown>;
    if (!isObj(E)) throw badResult();
    const out: Record<string, unknown[]> = {};
    for (const [name, element] of Object.entries(elements)) {
      const list = E[name];
      if (!Array.isArray(list)) throw badResult();
      out[name] = list.map(element);
    }
    return { kind, EntryCount: r.EntryCount, Entries: out } as unknown as StoredResult;
  }
  if (!Array.isArray(E)) throw badResult();
  const element = RESULT_ARRAY_ELEMENT[kind] as (v: unknown) => unknown;
  return { kind, EntryCount: r.EntryCount, Entries: E.map(element) } as unknown as StoredResult;
}
