/**
 * The search page's unsaved query and time range, kept when the session ends under the person's
 * fingers (a 401 sends them to sign in) and given back after they sign in again in this tab.
 * sessionStorage: this tab only, gone with it; a query is no credential. Kept per user, so
 * someone else signing in at the same browser tab does not get it.
 */
import { rangeFromParams, rangeToParams, TimeRange } from './time-range';

const KEY = 'console.searchDraft';
/** older drafts are forgotten */
const MAX_AGE_MS = 12 * 3600_000;

interface Stored {
  user: string;
  query: string;
  /** the range in its URL form (t=15m, or from=&to=) */
  range: string;
  at: number;
}

export interface Draft {
  query: string;
  range?: TimeRange;
}

export function keepDraft(user: string, query: string, range: TimeRange): void {
  const params = new URLSearchParams();
  rangeToParams(range, params);
  const stored: Stored = { user, query, range: params.toString(), at: Date.now() };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(stored));
  } catch {
    // storage full or refused: the draft is a courtesy
  }
}

/** The draft kept for `user` (undefined when none); it stays until forgetDraft. */
export function readDraft(user: string): Draft | undefined {
  let stored: Partial<Stored>;
  try {
    stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') ?? {};
  } catch {
    return undefined;
  }
  if (stored.user !== user || typeof stored.query !== 'string' || !(Date.now() - (stored.at ?? 0) < MAX_AGE_MS)) return undefined;
  const params = new URLSearchParams(typeof stored.range === 'string' ? stored.range : '');
  const none: TimeRange = { kind: 'relative', preset: '' };
  const range = rangeFromParams(params, none);
  return { query: stored.query, range: range === none ? undefined : range };
}

export function forgetDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
