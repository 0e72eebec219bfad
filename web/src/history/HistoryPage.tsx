import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { SearchLog } from '../api/types';
import { SaveToLibrary } from '../library/SaveToLibrary';
import { searchLink } from '../ui/search-link';
import '../ui/keeping.css';
import { usePrefs } from '../prefs/PrefsContext';
import { formatTime } from '../ui/time-format';
import { collapseRepeats } from './collapse-repeats';
import { relativeTime } from './relative-time';
import { ListTable } from '../ui/TableScroller';
import { ErrorNote } from '../ui/ErrorNote';
import { RowActions } from '../ui/RowActions';
import { useLatest } from '../ui/useCancellable';
import { FilterBar, SearchBox } from '../ui/Filters';

const DEBOUNCE_MS = 250;

/** One page of the person's history, newest first (index 0 = the latest search). */
const fetchHistory = (refine: string, start: number, end: number) =>
  api<SearchLog[] | null>('/api/searchhistory', { query: { refine: refine || undefined, start, end } }).then((l) => l ?? []);

/** The person's search history: newest first, narrowed by what they type, each one a link back into the search page. */
export function HistoryPage() {
  const { prefs } = usePrefs();
  const size = prefs.pageSize;
  const [refine, setRefine] = useState('');
  const [items, setItems] = useState<SearchLog[]>();
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const latest = useLatest();
  const ids = useId();

  // A new filter starts over from the newest search (after the person pauses typing).
  useEffect(() => {
    const isLatest = latest.begin();
    setLoading(true);
    const t = setTimeout(
      () => {
        fetchHistory(refine, 0, size).then(
          (list) => {
            if (!isLatest()) return;
            setItems(list);
            setMore(list.length === size);
            setError(undefined);
            setLoading(false);
          },
          (err: Error) => {
            if (!isLatest()) return;
            setError(`The history could not be read: ${err.message}`);
            setLoading(false);
          },
        );
      },
      items === undefined ? 0 : DEBOUNCE_MS,
    );
    return () => clearTimeout(t);
  }, [refine, size]); // eslint-disable-line react-hooks/exhaustive-deps -- reload only when the filter or page size changes

  function loadMore() {
    const isLatest = latest.join();
    const start = items?.length ?? 0;
    setLoading(true);
    fetchHistory(refine, start, start + size).then(
      (list) => {
        if (!isLatest()) return;
        setItems((prev) => [...(prev ?? []), ...list]);
        setMore(list.length === size);
        setLoading(false);
      },
      (err: Error) => {
        setError(`More history could not be read: ${err.message}`);
        setLoading(false);
      },
    );
  }

  const now = Date.now();
  return (
    <section className="keeping-page" aria-labelledby="history-title">
      <div className="page-head">
        <h1 id="history-title">Search history</h1>
      </div>
      <p className="muted intro">Every search you ran, newest first. Open one to edit it in the search page, or run it again over your default time range.</p>
      <FilterBar label="Filter the history">
        <SearchBox label="Refine" value={refine} onChange={setRefine} placeholder="part of a query…" />
        <span className="muted" role="status">
          {loading ? 'Loading…' : items ? `${items.length}${more ? '+' : ''} ${items.length === 1 ? 'search' : 'searches'}${refine ? ` containing “${refine}”` : ''}` : ''}
        </span>
      </FilterBar>
      <ErrorNote message={error} />
      {items && items.length === 0 && !loading && <p className="empty">{refine ? 'No search in your history contains this text.' : 'You have not run any search yet.'}</p>}
      {items && items.length > 0 && (
        <ListTable label="Search history" columns={['When', 'Query', 'Actions']}>
          {collapseRepeats(items).map(({ item: h, times }, i) => (
            <tr key={`${h.Launched}-${i}`}>
              <td className="text-cell when">
                <time dateTime={h.Launched}>{formatTime(h.Launched, prefs.timeZone).slice(0, 19)}</time>
                <span className="muted desc">
                  {relativeTime(Date.parse(h.Launched), now)}
                  {times > 1 ? `, ${times} times in a row` : ''}
                </span>
              </td>
              <td className="query-cell" id={`${ids}-q${i}`}>
                {h.UserQuery}
              </td>
              <td className="actions-cell">
                <RowActions label={`the search at ${formatTime(h.Launched, prefs.timeZone).slice(0, 19)}`}>
                  <Link className="button" to={searchLink(h.UserQuery)} aria-describedby={`${ids}-q${i}`}>
                    Open in search page
                  </Link>
                  <Link className="button" to={searchLink(h.UserQuery, true)} aria-describedby={`${ids}-q${i}`}>
                    Run again
                  </Link>
                  <SaveToLibrary query={h.UserQuery} />
                </RowActions>
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      {more && (
        <button type="button" className="more" onClick={loadMore} disabled={loading}>
          Show older searches
        </button>
      )}
    </section>
  );
}
