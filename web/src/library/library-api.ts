/** The search library (/api/library, contract "Search library") as the console uses it. */
import { api } from '../api/client';
import { LibraryEntry, LibraryEntryInput } from '../api/types';
import { hasEveryWord } from '../ui/kept-filter';

/** `admin`: an administrator's view of every user's entries (`?admin=true`). */
const adminQuery = (admin?: boolean) => (admin ? { admin: true } : undefined);

export async function listLibrary(admin?: boolean): Promise<LibraryEntry[]> {
  return (await api<LibraryEntry[] | null>('/api/library', { query: adminQuery(admin) })) ?? [];
}

export const createEntry = (input: LibraryEntryInput): Promise<LibraryEntry> => api<LibraryEntry>('/api/library', { method: 'POST', json: input });

/** The ThingUUID names exactly one entry, also in admin mode (rule 2). */
export const updateEntry = (entry: LibraryEntry, input: LibraryEntryInput, admin?: boolean): Promise<LibraryEntry> =>
  api<LibraryEntry>(`/api/library/${encodeURIComponent(entry.ThingUUID)}`, { method: 'PUT', json: input, query: adminQuery(admin) });

export const deleteEntry = (entry: LibraryEntry, admin?: boolean): Promise<unknown> =>
  api(`/api/library/${encodeURIComponent(entry.ThingUUID)}`, { method: 'DELETE', query: adminQuery(admin) });

/** "web, errors ,web" -> ["web", "errors"]: trimmed, blanks and repeats dropped. */
export function parseLabels(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',')) {
    const label = part.trim();
    if (label && !out.includes(label)) out.push(label);
  }
  return out;
}

/** Does the entry match the words typed in the filter box (every word, in name, labels, description or query) and the chosen label? */
export function entryMatches(e: LibraryEntry, text: string, label?: string): boolean {
  return hasEveryWord([e.Name, e.Description, e.Query, ...(e.Labels ?? [])], text, e.Labels, label);
}
