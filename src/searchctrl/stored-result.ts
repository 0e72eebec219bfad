/**
 * Condensed results (table, chart, gauge ...) as a render store keeps them: `result.json`, written
 * kind and entry count first so start-up reads only its first bytes, and parsed bodies kept in one
 * cache of RESULT_CACHE_BYTES for every store.
 */
import * as fsp from 'node:fs/promises';
import { RenderResult } from '../query';
import { ResultCache } from './result-cache';

export const RESULT_FILE = 'result.json';

export type ResultKind = RenderResult['kind'];
/** A condensing result as stored (entries kinds never use result.json). */
export type StoredResult = Exclude<RenderResult, { kind: 'entries' }>;

/** What `result.json` holds, read from its first bytes (results are written kind first, then EntryCount). */
const RESULT_HEADER = /^\{"kind":"(table|chart|gauge|stackgraph|pointmap)","EntryCount":(\d+)/;

/** What a store knows of its condensed result without reading its body. */
export interface CondensedHeader {
  kind: StoredResult['kind'];
  entryCount: number;
}

let results = new ResultCache<StoredResult>(256 * 1024 * 1024);
let maxBytes = 64 * 1024 * 1024;

/** Set once at start-up from the configuration (SearchLifecycle). */
export function configureResults(opts: { cacheBytes: number; maxResultBytes: number }): void {
  results = new ResultCache<StoredResult>(opts.cacheBytes);
  maxBytes = opts.maxResultBytes;
}

/** Parsed condensed results of every store, within RESULT_CACHE_BYTES (see ResultCache). */
export const resultCache = (): ResultCache<StoredResult> => results;

/** Largest condensed result stored (MAX_RESULT_BYTES); larger ones flag the store over its limit. */
export const maxResultBytes = (): number => maxBytes;

/** A condensed result as `result.json` holds it: kind and entry count first (see RESULT_HEADER). */
export function serializeResult(r: StoredResult): string {
  return JSON.stringify({ kind: r.kind, EntryCount: r.EntryCount, Entries: r.Entries });
}

/** What `serializeResult` writes before a result's `Entries`: `{"kind":"table","EntryCount":3,"Entries":`. */
export function resultPrefix(h: CondensedHeader): string {
  return `${JSON.stringify({ kind: h.kind, EntryCount: h.entryCount }).slice(0, -1)},"Entries":`;
}

/** Kind and entry count from the first bytes of a result file (the body stays on disk). */
export async function readResultHeader(file: string): Promise<CondensedHeader> {
  const fh = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(128);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const m = RESULT_HEADER.exec(buf.toString('utf8', 0, bytesRead));
    if (!m) throw new Error(`${RESULT_FILE} does not start with its kind and entry count`);
    return { kind: m[1] as StoredResult['kind'], entryCount: Number(m[2]) };
  } finally {
    await fh.close();
  }
}
