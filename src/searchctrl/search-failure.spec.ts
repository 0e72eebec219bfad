import { AppError, refusal } from '../common/errors/app-error';
import { failedSearchError, failureOf, storedFailure } from './search-failure';

describe('search failures', () => {
  it('answer 422 when the query or a limit caused them, the service status otherwise', () => {
    expect(failureOf(refusal('INDEXER_SEARCH_FAILED', 'a', 'bad regex'))).toEqual({ status: 422, reason: 'Indexer a could not run the search: bad regex' });
    expect(failureOf(new AppError(408, 'Search timed out after 5 ms'))).toEqual({ status: 422, reason: 'Search timed out after 5 ms' });
    expect(failureOf(refusal('INDEXER_UNAVAILABLE', 'a'))).toEqual({ status: 503, reason: 'Indexer a is unavailable' });
    expect(failureOf(new Error('ENOSPC: /data/searches/active/1/entries.jsonl'))).toEqual({ status: 500, reason: 'Search failed' });
    expect(storedFailure('Search timed out after 5 ms')).toEqual({ status: 422, reason: 'Search timed out after 5 ms' });
  });

  it('say "search failed" and why in the error a request for the results gets', () => {
    const err = failedSearchError({ status: 503, reason: 'Indexer a is unavailable' });
    expect([err.status, err.message]).toEqual([503, 'search failed: Indexer a is unavailable']);
  });
});
