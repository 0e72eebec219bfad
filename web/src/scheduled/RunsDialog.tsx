import { useState } from 'react';
import { Link } from 'react-router';
import { ScheduledSearchRun } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { Dialog } from '../ui/Dialog';
import { ErrorNote } from '../ui/ErrorNote';
import { openSearchLink } from '../ui/search-link';
import { ListTable } from '../ui/TableScroller';
import { formatDuration, formatTime } from '../ui/time-format';
import { useCancellable } from '../ui/useCancellable';
import { listRuns, ScheduledRow } from './scheduled-api';

/** A run's state in words. */
function stateOf(r: ScheduledSearchRun): string {
  if (r.State === 'queued') return 'Waiting to run';
  if (r.State === 'running') return r.Attempt > 1 ? `Running again (try ${r.Attempt})` : 'Running';
  if (r.Error) return 'Failed';
  return r.Attempt > 1 ? `Done (on try ${r.Attempt})` : 'Done';
}

/** The runs of a scheduled search, the latest first: when, how long, its error, a link to its results. Read again with Refresh. */
export function RunsDialog({ scheduled, onClose }: { scheduled: ScheduledRow; onClose(): void }) {
  const { prefs } = usePrefs();
  const [runs, setRuns] = useState<ScheduledSearchRun[]>();
  const [error, setError] = useState<string>();
  const [round, setRound] = useState(0);
  useCancellable(() => listRuns(scheduled.ID), { answer: setRuns, error: (err) => setError(`The runs could not be read: ${err.message}`) }, [scheduled.ID, round]);
  const when = (iso: string | null) => (iso ? formatTime(iso, prefs.timeZone).slice(0, 19) : '');

  return (
    <Dialog title={`Runs of “${scheduled.Name}”`} onClose={onClose} wide>
      <ErrorNote message={error} />
      {!runs && !error && <p className="muted">Loading the runs…</p>}
      {runs && runs.length === 0 && <p className="muted">It has not run yet.</p>}
      {runs && runs.length > 0 && (
        <ListTable label={`Runs of ${scheduled.Name}`} className="runs-table" columns={['Due at', 'Started', 'Took', 'State', 'Results', 'Error']}>
          {runs.map((r) => (
            <tr key={r.ID}>
              <th scope="row">
                {when(r.Slot).slice(0, 16)}
                {r.Kind === 'oneshot' && <div className="muted small">run now</div>}
              </th>
              <td>{when(r.Started)}</td>
              <td>{r.Finished ? formatDuration(r.Duration / 1e6) : ''}</td>
              <td>{stateOf(r)}</td>
              <td>
                {r.SearchID && r.ResultsAvailable ? (
                  <Link to={openSearchLink(r.SearchID)} aria-label={`Open the results of the run due at ${when(r.Slot).slice(0, 16)}`}>
                    Open results
                  </Link>
                ) : r.SearchID ? (
                  'Deleted (kept time over)'
                ) : (
                  ''
                )}
              </td>
              <td className="run-error">{r.Error}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <div className="dialog-buttons">
        <button type="button" onClick={() => setRound((n) => n + 1)}>
          Refresh
        </button>
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
