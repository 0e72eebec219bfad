import { usePrefs } from '../prefs/PrefsContext';
import { ActionDialog } from '../ui/Dialog';
import { LabelChips } from '../ui/LabelChips';
import { DeleteKeptDialog, KeptListPage, OwnedNameCell, useKeptPage } from '../ui/ListPage';
import { RowActions, RowButton } from '../ui/RowActions';
import { sharingText } from '../ui/SharingFields';
import { formatDuration, formatTime } from '../ui/time-format';
import { RunsDialog } from './RunsDialog';
import { clearError, deleteScheduled, durationWords, listScheduled, ranAt, runNow, ScheduledRow, scheduledMatches, scheduleInWords } from './scheduled-api';
import { ScheduledDialog } from './ScheduledDialog';
import { fromNow } from './ScheduleField';
import './scheduled.css';

const byName = (a: ScheduledRow, b: ScheduledRow) => a.Name.localeCompare(b.Name);
const READ_ONLY = 'Only its owner or an administrator may change, run or delete it.';

type Editing = { kind: 'new' } | { kind: 'edit' | 'delete' | 'runs' | 'run' | 'clear'; s: ScheduledRow };

/** Automation › Scheduled searches: queries the service runs on a schedule, their runs and results. */
export function ScheduledPage() {
  const page = useKeptPage<ScheduledRow, Editing>({ read: listScheduled, compare: byName, what: 'the scheduled searches', matches: scheduledMatches, owners: 'others' });
  const { prefs } = usePrefs();
  const { shown, label, setLabel, editing, setEditing } = page;
  const saved = (verb: string) => (name: string) => page.done(`${verb} “${name}”.`);
  const when = (iso: string) => formatTime(iso, prefs.timeZone).slice(0, 16);

  return (
    <KeptListPage
      page={page}
      id="scheduled"
      title="Scheduled searches"
      create={{ label: 'New scheduled search', onClick: () => setEditing({ kind: 'new' }) }}
      intro="Queries the service runs on a schedule, each run over the time just before it, as their owner. Each run’s results stay available as a saved search for a while; a dashboard can show the latest."
      filter={{ what: 'the scheduled searches', every: 'scheduled searches', label: 'Search the scheduled searches', placeholder: 'name, label, query, schedule…' }}
      labels
      loading="Loading the scheduled searches…"
      empty="There are no scheduled searches yet. Make one with “New scheduled search”."
      columns={['Name', 'Schedule', 'Query', 'Last run', 'Shared with', 'Actions']}
      tableLabel="Scheduled searches"
      noMatch="No scheduled search matches the filter."
      dialogs={
        <>
          {editing?.kind === 'new' && <ScheduledDialog title="New scheduled search" onClose={page.close} onSaved={saved('Saved')} />}
          {editing?.kind === 'edit' && <ScheduledDialog title={`Edit “${editing.s.Name}”`} scheduled={editing.s} onClose={page.close} onSaved={saved('Updated')} />}
          {editing?.kind === 'runs' && <RunsDialog scheduled={editing.s} onClose={page.close} />}
          {editing?.kind === 'run' && (
            <ActionDialog
              title="Run now"
              message={`Run “${editing.s.Name}” once now, over the last ${durationWords(editing.s.Duration)}? Its schedule goes on as before.`}
              action="Run now"
              busyAction="Asking…"
              tone="primary"
              run={() => runNow(editing.s.ID)}
              onDone={() => page.done(`“${editing.s.Name}” will run in a moment: see its runs.`)}
              onClose={page.close}
            />
          )}
          {editing?.kind === 'clear' && (
            <ActionDialog
              title="Clear the error"
              message={`The last error of “${editing.s.Name}”: ${editing.s.LastError}`}
              action="Clear error"
              tone="primary"
              run={() => clearError(editing.s.ID)}
              onDone={() => page.done(`Cleared the error of “${editing.s.Name}”.`)}
              onClose={page.close}
            />
          )}
          {editing?.kind === 'delete' && (
            <DeleteKeptDialog
              page={page}
              title="Delete scheduled search"
              name={editing.s.Name}
              consequence="It stops running, and the kept results of its runs are deleted."
              run={() => deleteScheduled(editing.s.ID)}
            />
          )}
        </>
      }
    >
      {shown.map((s) => {
        const last = ranAt(s.LastRun);
        return (
          <tr key={s.ID}>
            <OwnedNameCell name={<span className="scheduled-name">{s.Name}</span>} description={s.Description} owner={page.otherOwner(s)} />
            <td className="text-cell">
              <code>{s.Schedule}</code>
              <div className="muted small">{scheduleInWords(s.Schedule) ?? ''}</div>
              <div className="small">{s.Disabled ? 'Disabled' : s.NextRun ? `Next: ${when(s.NextRun)} (${fromNow(s.NextRun)})` : ''}</div>
            </td>
            <td className="query-cell" title={s.SearchString}>
              {s.SearchString.length > 100 ? `${s.SearchString.slice(0, 99)}…` : s.SearchString}
              <div className="muted small">over the last {durationWords(s.Duration)}</div>
            </td>
            <td className="text-cell">
              {last ? `${when(last)}, took ${formatDuration(s.LastRunDuration / 1e6)}` : 'Never'}
              {s.LastError && (
                <div className="error small" title={s.LastError}>
                  Error: {s.LastError.length > 80 ? `${s.LastError.slice(0, 79)}…` : s.LastError}
                </div>
              )}
              <LabelChips labels={s.Labels} what="scheduled searches" active={label} onPick={setLabel} />
            </td>
            <td className="text-cell">{sharingText(s.Groups, s.Global, page.groups)}</td>
            <td className="actions-cell">
              <RowActions label={s.Name} why={!s.Can.Modify ? READ_ONLY : undefined}>
                <RowButton onClick={() => setEditing({ kind: 'runs', s })} aria-label={`Runs of ${s.Name}`}>
                  Runs
                </RowButton>
                <RowButton unavailable={s.Can.Modify ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'run', s })} aria-label={`Run ${s.Name} now`}>
                  Run now
                </RowButton>
                <RowButton unavailable={s.Can.Modify ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'edit', s })} aria-label={`Edit ${s.Name}`}>
                  Edit
                </RowButton>
                {s.LastError && (
                  <RowButton unavailable={s.Can.Modify ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'clear', s })} aria-label={`Clear the error of ${s.Name}`}>
                    Clear error
                  </RowButton>
                )}
                <RowButton unavailable={s.Can.Delete ? undefined : READ_ONLY} onClick={() => setEditing({ kind: 'delete', s })} aria-label={`Delete ${s.Name}`}>
                  Delete
                </RowButton>
              </RowActions>
            </td>
          </tr>
        );
      })}
    </KeptListPage>
  );
}
