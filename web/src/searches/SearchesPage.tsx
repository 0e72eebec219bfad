import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../auth/AuthContext';
import { ConfirmDialog } from '../ui/Dialog';
import { SaveToLibrary } from '../library/SaveToLibrary';
import { openSearchLink } from '../ui/search-link';
import { usePrefs } from '../prefs/PrefsContext';
import { SaveNoteDialog } from '../ui/SaveNoteDialog';
import { formatBytes, formatCount, formatTime } from '../ui/time-format';
import { allowedActions, isRunning, listSearches, noteOf, PersistentSearch, runSearchAction, SaveNote, SearchAction, stateWords } from './searches-api';
import { useUserNames } from '../ui/useUserNames';
import { ListTable } from '../ui/TableScroller';
import { ErrorNote } from '../ui/ErrorNote';
import { RowActions } from '../ui/RowActions';
import { useLatest } from '../ui/useCancellable';
import { EveryUsersSwitch, FilterBar, SearchBox } from '../ui/Filters';

const REFRESH_MS = 3000;
const DONE: Record<SearchAction, string> = { background: 'sent to the background', save: 'marked to be saved', stop: 'stopped', delete: 'deleted' };

/**
 * Persistent searches: the person's searches (and those shared with them) the service keeps,
 * running, backgrounded or saved. Refreshes itself while the page is visible.
 */
export function SearchesPage() {
  const { user } = useAuth();
  const { prefs } = usePrefs();
  const [admin, setAdmin] = useState(false);
  const [searches, setSearches] = useState<PersistentSearch[]>();
  const [loadError, setLoadError] = useState<string>();
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState<string>();
  const [dialog, setDialog] = useState<{ kind: 'save' | 'delete'; search: PersistentSearch; error?: string }>();
  const names = useUserNames((searches ?? []).some((s) => s.UID !== user.UID));
  const latest = useLatest();

  const load = useCallback(async () => {
    const isLatest = latest.begin();
    try {
      const list = await listSearches(admin);
      if (!isLatest()) return;
      setSearches(list);
      setLoadError(undefined);
    } catch (err) {
      if (isLatest()) setLoadError(`The searches could not be listed: ${(err as Error).message}`);
    }
  }, [admin, latest]);

  useEffect(() => {
    void load();
    const t = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, REFRESH_MS);
    return () => clearInterval(t);
  }, [load]);

  /** Runs the action; answers the service's refusal in words (undefined when done). */
  async function act(s: PersistentSearch, action: SearchAction, note?: SaveNote): Promise<string | undefined> {
    setBusy(`${s.ID}:${action}`);
    try {
      await runSearchAction(s.ID, action, note);
      setOutcome({ ok: true, text: `Search ${s.ID} ${DONE[action]}.` });
      return undefined;
    } catch (err) {
      const text = `Could not ${action} search ${s.ID}: ${(err as Error).message}`;
      setOutcome({ ok: false, text });
      return text;
    } finally {
      setBusy(undefined);
      void load();
    }
  }

  const shown = useMemo(() => {
    const words = text.toLowerCase().split(/\s+/).filter(Boolean);
    return (searches ?? []).filter((s) => {
      const hay = [s.UserQuery, s.State, s.ID, noteOf(s).name ?? '', noteOf(s).notes ?? '', names.get(s.UID) ?? ''].join('\n').toLowerCase();
      return words.every((w) => hay.includes(w));
    });
  }, [searches, text, names]);

  return (
    <section className="keeping-page" aria-labelledby="searches-title">
      <div className="page-head">
        <h1 id="searches-title">Persistent searches</h1>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <p className="muted intro">
        Searches the service keeps: sent to the background, saved, or open in a page right now. Open one to read its results again without running it; saved results outlive a
        restart of the service.
      </p>
      <FilterBar label="Filter searches">
        <SearchBox label="Filter searches" value={text} onChange={setText} placeholder="query, state, owner…" />
        <EveryUsersSwitch admin={user.Admin} checked={admin} onChange={setAdmin} what="searches" />
      </FilterBar>
      <div aria-live="polite">
        {outcome && (
          <p className={outcome.ok ? 'notice' : 'error'} role={outcome.ok ? 'status' : 'alert'}>
            {outcome.text}
          </p>
        )}
      </div>
      <ErrorNote message={loadError} />
      {searches === undefined && !loadError && <p className="muted">Loading the searches…</p>}
      {searches && searches.length === 0 && <p className="empty">No search is kept. On the search page, “Send to background” or “Save results” keeps one.</p>}
      {searches && searches.length > 0 && (
        <ListTable
          label="Persistent searches"
          columns={['Query', 'State', 'Owner', { label: 'Results', className: 'num' }, { label: 'Size', className: 'num' }, 'Started', 'Actions']}
        >
          {shown.map((s) => {
            const note = noteOf(s);
            const can = allowedActions(s, s.UID === user.UID || user.Admin);
            const label = note.name ?? `search ${s.ID}`;
            const button = (action: SearchAction, text: string, onClick: () => void = () => void act(s, action)) =>
              can[action] && (
                <button type="button" onClick={onClick} disabled={busy === `${s.ID}:${action}`} aria-label={`${text} ${label}`}>
                  {text}
                </button>
              );
            return (
              <tr key={s.ID}>
                <td className="query-cell">
                  {note.name && <span className="search-name">{note.name}</span>}
                  <span>{s.UserQuery}</span>
                  {note.notes && <span className="muted desc">{note.notes}</span>}
                  <span className="muted desc">
                    {formatTime(s.StartRange, prefs.timeZone).slice(0, 19)} to {formatTime(s.EndRange, prefs.timeZone).slice(0, 19)} · ID {s.ID}
                  </span>
                </td>
                <td className="text-cell">
                  <span className="state">{s.State}</span>
                  <span className="muted desc">{stateWords(s)}</span>
                </td>
                <td className="text-cell">{names.get(s.UID) ?? `user ${s.UID}`}</td>
                <td className="num">{s.details ? formatCount(s.details.ItemCount) : ''}</td>
                <td className="num">{formatBytes(s.StoredData)}</td>
                <td className="text-cell nowrap">{s.details ? formatTime(s.details.Started, prefs.timeZone).slice(0, 19) : ''}</td>
                <td className="actions-cell">
                  <RowActions label={label}>
                    <Link className="button" to={openSearchLink(s.ID)} aria-label={`Open ${label}`}>
                      {isRunning(s) ? 'Open' : 'Open results'}
                    </Link>
                    {button('background', 'Background')}
                    {button('save', 'Save', () => setDialog({ kind: 'save', search: s }))}
                    {button('stop', 'Stop')}
                    {button('delete', 'Delete', () => setDialog({ kind: 'delete', search: s }))}
                    <SaveToLibrary query={s.UserQuery} label="Add to library" />
                  </RowActions>
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      {searches && searches.length > 0 && shown.length === 0 && <p className="empty">No search matches the filter.</p>}
      {dialog?.kind === 'save' && (
        <SaveNoteDialog
          searchId={dialog.search.ID}
          onClose={() => setDialog(undefined)}
          error={dialog.error}
          onSave={async (note) => {
            const error = await act(dialog.search, 'save', note);
            setDialog(error ? { ...dialog, error } : undefined);
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete search"
          message={<>Delete search {dialog.search.ID} and its results? Pages that have it open lose it too.</>}
          action="Delete"
          busy={busy === `${dialog.search.ID}:delete`}
          error={dialog.error}
          onConfirm={() => void act(dialog.search, 'delete').then((error) => setDialog(error ? { ...dialog, error } : undefined))}
          onClose={() => setDialog(undefined)}
        />
      )}
    </section>
  );
}
