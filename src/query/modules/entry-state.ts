/**
 * Partial state made of whole entries (sort, limit, unique, first/last, top/bottom): JSON strings
 * of up to CHUNK serialised entries each, so a large state is a few strings rather than an object
 * per entry and per EV when it crosses a worker boundary and waits on the web server.
 */
import { Entry, SerializedEntry } from '../types';
import { deserializeEntry, serializeEntry } from '../values';

const CHUNK = 10_000;

export interface EntriesState {
  count: number;
  chunks: string[];
}

export function toEntriesState(entries: Entry[]): EntriesState {
  const chunks: string[] = [];
  for (let i = 0; i < entries.length; i += CHUNK) chunks.push(JSON.stringify(entries.slice(i, i + CHUNK).map(serializeEntry)));
  return { count: entries.length, chunks };
}

/** Number of entries in the states, without decoding them. */
export function entriesStateCount(states: unknown[]): number {
  let n = 0;
  for (const s of states) n += (s as EntriesState).count;
  return n;
}

/** Decodes the states one entry at a time, in order. */
export function* entriesOf(states: unknown[]): Generator<Entry> {
  for (const s of states) {
    for (const chunk of (s as EntriesState).chunks) {
      for (const e of JSON.parse(chunk) as SerializedEntry[]) yield deserializeEntry(e);
    }
  }
}

export function fromEntriesStates(states: unknown[]): Entry[] {
  const out: Entry[] = [];
  for (const e of entriesOf(states)) out.push(e);
  return out;
}

/**
 * Hands out `entries` (an array nobody else holds) a chunk at a time, dropping each chunk from it
 * once handed out: the renderer's rows and the merged entries are not all held at once (mergeChunks).
 */
export function* drainChunks(entries: Entry[]): Generator<Entry[]> {
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    entries.fill(undefined as unknown as Entry, i, i + CHUNK);
    yield chunk;
  }
}
