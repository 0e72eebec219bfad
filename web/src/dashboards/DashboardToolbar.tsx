import { TimePicker } from '../search/TimePicker';
import { TimeRange } from '../search/time-range';

/** What its owner (or an admin) does to a dashboard they may change. */
export interface EditActions {
  /** Add tile needs a layout the console can draw */
  canAdd: boolean;
  dirty: boolean;
  saving: boolean;
  onAdd(): void;
  onSettings(): void;
  onDiscard(): void;
  onSave(): void;
}

/**
 * The dashboard's toolbar: its time range (Reset time when it was picked or zoomed, given
 * `onResetTime`), Refresh, pausing live updates (every `live` seconds), and with `edit` the
 * owner's actions.
 */
export function DashboardToolbar({
  range,
  zone,
  onRange,
  onResetTime,
  canRefresh,
  onRefresh,
  live,
  paused,
  onPaused,
  edit,
}: {
  range: TimeRange;
  zone: string;
  onRange(r: TimeRange): void;
  onResetTime?: () => void;
  canRefresh: boolean;
  onRefresh(): void;
  live: number | undefined;
  paused: boolean;
  onPaused(paused: boolean): void;
  edit?: EditActions;
}) {
  return (
    <div className="toolbar dashboard-tools" role="toolbar" aria-label="Dashboard">
      <TimePicker value={range} zone={zone} onChange={onRange} />
      {onResetTime && (
        <button type="button" onClick={onResetTime}>
          Reset time
        </button>
      )}
      <button type="button" onClick={onRefresh} disabled={!canRefresh}>
        Refresh
      </button>
      {live && (
        <button type="button" aria-pressed={paused} onClick={() => onPaused(!paused)}>
          {paused ? 'Resume live update' : 'Pause live update'}
        </button>
      )}
      {edit && (
        <>
          <button type="button" onClick={edit.onAdd} disabled={!edit.canAdd}>
            Add tile
          </button>
          <button type="button" onClick={edit.onSettings}>
            Settings
          </button>
          <button type="button" onClick={edit.onDiscard} disabled={!edit.dirty || edit.saving}>
            Discard changes
          </button>
          <button type="button" className="primary" onClick={edit.onSave} disabled={!edit.dirty || edit.saving}>
            {edit.saving ? 'Saving…' : 'Save'}
          </button>
        </>
      )}
    </div>
  );
}
