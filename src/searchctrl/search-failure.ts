/**
 * A search whose run failed. SearchInfo, summaries and stats carry the reason in `Error`; renderer
 * pages and downloads answer an error status instead of an empty finished result.
 */
import { AppError } from '../common/errors/app-error';
import { messageOf } from '../common/errors/codes';
import type { LiveSearch } from './search.model';

export interface SearchFailure {
  /** 422 when the query or a limit caused it (pipeline error, time or memory limit); 5xx when the service did. */
  status: number;
  reason: string;
}

/** The query or a limit made the search fail: the request for its results was fine, the search was not. */
export const FAILED_BY_QUERY = 422;

/** The failure of a run from what the executor threw (AppError messages are safe to show). */
export function failureOf(err: unknown): SearchFailure {
  if (!(err instanceof AppError)) return { status: 500, reason: 'Search failed' };
  // Too busy (429) is the service's state, not the query's fault: retryable, like 503.
  if (err.status === 429) return { status: 503, reason: err.message };
  return { status: err.status < 500 ? FAILED_BY_QUERY : err.status, reason: err.message };
}

/**
 * A failure read back from a saved search, which keeps only the reason: most runs fail on their
 * query or a limit, so it answers 422.
 */
export const storedFailure = (reason: string): SearchFailure => ({ status: FAILED_BY_QUERY, reason });

/** The error a request for the results of a failed search answers with. */
export const failedSearchError = (f: SearchFailure): AppError => new AppError(f.status, messageOf('SEARCH_FAILED', f.reason), {}, 'SEARCH_FAILED');

/** Throws failedSearchError when the search failed. */
export function requireSucceeded(s: LiveSearch): void {
  if (s.failure) throw failedSearchError(s.failure);
}
