/** Entries as the console shows them: bytes decoded as UTF-8 text, tag numbers as names. */
import { SearchEntry } from '../../api/types';

export interface EntryRow {
  ts: string;
  tag: string;
  src: string;
  /** the data as text (invalid UTF-8 shows as U+FFFD); cut at MAX_SHOWN characters */
  data: string;
  /** characters left out of `data` */
  cut: number;
  evs: Array<[string, string]>;
}

export const MAX_SHOWN = 16_384;
const decoder = new TextDecoder('utf-8', { fatal: false });

export function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function toRow(e: SearchEntry, tagNames: Map<number, string>): EntryRow {
  let text: string;
  try {
    text = decoder.decode(decodeBase64(e.Data ?? ''));
  } catch {
    text = String(e.Data ?? '');
  }
  const cut = Math.max(0, text.length - MAX_SHOWN);
  return {
    ts: e.TS,
    tag: tagNames.get(e.Tag) ?? String(e.Tag),
    src: e.SRC ?? '',
    data: cut ? text.slice(0, MAX_SHOWN) : text,
    cut,
    evs: (e.Enumerated ?? []).map((ev) => [ev.Name, ev.ValueStr ?? '']),
  };
}

/** `{name: number}` (the renderer page's Tags) as number -> name. */
export function tagNamesOf(tags: Record<string, number> | undefined, into = new Map<number, string>()): Map<number, string> {
  for (const [name, n] of Object.entries(tags ?? {})) into.set(n, name);
  return into;
}
