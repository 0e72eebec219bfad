/**
 * Queries a person did not write (another owner's dashboard tile, a link that runs a query, a
 * library entry's Run) must not change anything before the person agrees (README, "Queries
 * written by someone else"). The service names a query's side effects in `POST /api/parse`, and
 * refuses a dashboard launch of someone else's query that has any (403) unless it says
 * `ConfirmSideEffects`.
 */
import { api, ApiError } from '../api/client';
import { ParseResponse, SideEffect } from '../api/types';

/** What the query would change when it runs; [] for nothing (or a query that does not parse). */
export async function sideEffectsOf(query: string): Promise<SideEffect[]> {
  const parsed = await api<ParseResponse>('/api/parse', { method: 'POST', json: { SearchString: query } });
  return parsed.SideEffects ?? [];
}

/** The service refused a launch because the query, written by someone else, has side effects. */
export function isSideEffectRefusal(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 403 && /side effects/i.test(err.message);
}
