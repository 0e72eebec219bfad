import { useId } from 'react';
import { useAuth } from '../auth/AuthContext';
import { parseLabels } from '../library/library-api';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { createScheduled, DURATIONS, durationWords, ScheduledInput, ScheduledRow, updateScheduled } from './scheduled-api';
import { ScheduleField } from './ScheduleField';
import './scheduled.css';

/**
 * Creates a scheduled search (no `scheduled`) or edits one: name, description, query, schedule
 * (with its next runs), the time range each run covers, backfill, enabled, labels and sharing.
 * The service's refusals (a bad schedule, one too frequent, the per-user cap) are shown as it says them.
 */
export function ScheduledDialog({ title, scheduled, onSaved, onClose }: { title: string; scheduled?: ScheduledRow; onSaved(name: string): void; onClose(): void }) {
  const { user } = useAuth();
  const { error, busy, onSubmit } = useFormAction(act);
  const rangeHint = useId();
  const backfillHint = useId();
  const durations =
    scheduled && !DURATIONS.some(([s]) => s === scheduled.Duration) ? [...DURATIONS, [scheduled.Duration, durationWords(scheduled.Duration)] as [number, string]] : DURATIONS;

  function act(f: FormData): FormWork {
    const sharing = readSharing(f, user.Admin);
    const input: ScheduledInput = {
      Name: String(f.get('name') ?? '').trim(),
      Description: String(f.get('description') ?? ''),
      SearchString: String(f.get('query') ?? ''),
      Schedule: String(f.get('schedule') ?? '').trim(),
      Timezone: String(f.get('timezone') ?? '').trim(),
      Duration: Number(f.get('duration')),
      BackfillEnabled: f.get('backfill') === 'on',
      Disabled: f.get('enabled') !== 'on',
      Labels: parseLabels(String(f.get('labels') ?? '')),
      Groups: sharing.gids,
    };
    if (sharing.global !== undefined) input.Global = sharing.global;
    if (!input.Name) return 'Give the scheduled search a name.';
    if (!input.SearchString.trim()) return 'The query is empty.';
    if (!input.Schedule) return 'Say when it runs (the schedule).';
    return async () => {
      if (scheduled) await updateScheduled(scheduled.ID, input);
      else await createScheduled(input);
      onSaved(input.Name);
    };
  }

  return (
    <Dialog title={title} onClose={onClose} wide>
      <form className="entry-form scheduled-form" onSubmit={onSubmit}>
        <label>
          Name
          <input name="name" defaultValue={scheduled?.Name ?? ''} required maxLength={256} data-autofocus />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={scheduled?.Description ?? ''} rows={2} />
        </label>
        <label>
          Query
          <textarea name="query" className="mono" defaultValue={scheduled?.SearchString ?? ''} rows={3} required spellCheck={false} />
        </label>
        <ScheduleField defaultSchedule={scheduled?.Schedule ?? '0 * * * *'} defaultTimezone={scheduled?.Timezone ?? ''} />
        <label>
          Each run searches the last
          <select name="duration" defaultValue={String(scheduled?.Duration ?? -3600)} aria-describedby={rangeHint}>
            {durations.map(([s, words]) => (
              <option key={s} value={s}>
                {words}
              </option>
            ))}
          </select>
        </label>
        <span id={rangeHint} className="muted small field-hint">
          Up to the time of its slot: a run due at 09:00 with “1 hour” searches 08:00 to 09:00.
        </span>
        <label className="check">
          <input type="checkbox" name="enabled" defaultChecked={!(scheduled?.Disabled ?? false)} /> Enabled
        </label>
        <label className="check">
          <input type="checkbox" name="backfill" defaultChecked={scheduled?.BackfillEnabled ?? false} aria-describedby={backfillHint} /> Backfill missed runs
        </label>
        <span id={backfillHint} className="muted small field-hint">
          When the service was down at run times, run each missed one after it is back (otherwise only the latest).
        </span>
        <label>
          Labels
          <input name="labels" defaultValue={(scheduled?.Labels ?? []).join(', ')} />
        </label>
        <SharingFields gids={scheduled?.Groups} global={scheduled?.Global} legend="Share it and its results with groups" alone="it and its results stay yours alone" />
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Save'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
