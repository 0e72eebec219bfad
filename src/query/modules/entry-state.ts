/** Partial state made of whole entries (sort, limit, unique). */
import { Entry, SerializedEntry } from '../types';
import { deserializeEntry, serializeEntry } from '../values';

export interface EntriesState {
  entries: SerializedEntry[];
}

export function toEntriesState(entries: Entry[]): EntriesState {
  return { entries: entries.map(serializeEntry) };
}

export function fromEntriesStates(states: unknown[]): Entry[] {
  return states.flatMap((s) => (s as EntriesState).entries.map(deserializeEntry));
}
