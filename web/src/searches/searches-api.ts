/** Persistent searches (/api/searchctrl, contract "Search control" and "Search states"). */
import { api } from '../api/client';
import { SearchDetails, SearchSummary } from '../api/types';

export interface PersistentSearch extends SearchSummary {
  /** from /api/searchctrl/details (when the service answered it) */
  details?: SearchDetails;
}

export type SearchAction = 'background' | 'save' | 'stop' | 'delete';

const ZERO_YEAR = /^0001-/;

/** The list, with each search's details (start time, result count, saved name) merged in; newest first. */
export async function listSearches(admin?: boolean): Promise<PersistentSearch[]> {
  const query = admin ? { admin: true } : undefined;
  const [list, details] = await Promise.all([
    api<SearchSummary[] | null>('/api/searchctrl', { query }),
    api<SearchDetails[] | null>('/api/searchctrl/details', { query }).catch(() => null),
  ]);
  const byId = new Map((details ?? []).map((d) => [d.ID, d]));
  const merged = (list ?? []).map((s) => ({ ...s, details: byId.get(s.ID) }));
  return merged.sort((a, b) => startedAt(b) - startedAt(a) || b.ID.localeCompare(a.ID));
}

const startedAt = (s: PersistentSearch): number => (s.details ? Date.parse(s.details.Started) || 0 : 0);

export function runSearchAction(id: string, action: SearchAction, metadata?: SaveNote): Promise<unknown> {
  const path = `/api/searchctrl/${encodeURIComponent(id)}`;
  switch (action) {
    case 'background':
      return api(`${path}/background`, { method: 'PATCH' });
    case 'save':
      return api(`${path}/save`, { method: 'PATCH', json: metadata ?? null });
    case 'stop':
      return api(`${path}/stop`, { method: 'PUT' });
    case 'delete':
      return api(path, { method: 'DELETE' });
  }
}

/** The product's save note (`SaveSearchPatch`): a name and notes kept with the saved results. */
export interface SaveNote {
  name?: string;
  notes?: string;
}

/** The name and notes of a saved search; metadata written by any client, so only strings are kept. */
export function noteOf(s: PersistentSearch): SaveNote {
  const m = s.details?.SaveMetadata;
  const o = m && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
  const name = s.details?.Name || (typeof o.name === 'string' ? o.name : undefined);
  return { name: name || undefined, notes: typeof o.notes === 'string' && o.notes ? o.notes : undefined };
}

export const stateParts = (s: SearchSummary): string[] => s.State.split('/').filter(Boolean);

/** Still running: its info says unfinished (the zero timestamp). */
export const isRunning = (s: PersistentSearch): boolean => !!s.details && ZERO_YEAR.test(s.details.Finished) && !s.Error;

/** What the state means, in words. */
export function stateWords(s: PersistentSearch): string {
  const p = stateParts(s);
  const words: string[] = [];
  if (s.Error) words.push(`failed: ${s.Error}`);
  else if (isRunning(s)) words.push('running');
  else if (s.details) words.push('finished');
  if (p.includes('BACKGROUNDED')) words.push('kept in the background');
  if (p.includes('SAVING')) words.push('saved once it finishes');
  if (p.includes('SAVED')) words.push('results saved');
  if (p.includes('DORMANT') && !p.includes('SAVED')) words.push('kept until deleted or the service restarts');
  const n = s.AttachedClients;
  words.push(n === 0 ? 'not open anywhere' : `open in ${n} ${n === 1 ? 'page' : 'pages'}`);
  return words.join(', ');
}

/** The actions the contract allows in this state (the service still has the last word). */
export function allowedActions(s: PersistentSearch, mayModify: boolean): Record<SearchAction, boolean> {
  const p = stateParts(s);
  return {
    background: p.includes('ACTIVE') && !p.includes('BACKGROUNDED') && !p.includes('SAVED'),
    save: mayModify && !p.includes('SAVED') && !p.includes('SAVING'),
    stop: mayModify && isRunning(s) && !p.includes('SAVED') && !p.includes('DORMANT'),
    delete: mayModify,
  };
}
