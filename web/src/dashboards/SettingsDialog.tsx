import { FormEvent, useState } from 'react';
import { Dialog, FormFooter } from '../ui/Dialog';
import { parseLabels } from '../library/library-api';
import { rangeLabel } from '../search/TimePicker';
import { TimeRange } from '../search/time-range';

export interface DashboardSettings {
  Name: string;
  Description: string;
  Labels: string[];
  liveUpdateInterval: number;
  linkZooming: boolean;
  /** the range on screen becomes the dashboard's own */
  range?: TimeRange;
}

/** Name, description, labels, live update, linked zooming and the default time range of a dashboard. */
export function SettingsDialog({
  initial,
  current,
  zone,
  onApply,
  onClose,
}: {
  initial: Omit<DashboardSettings, 'range'>;
  /** the range on screen, offered as the new default */
  current: TimeRange;
  zone: string;
  onApply(s: DashboardSettings): void;
  onClose(): void;
}) {
  const [error, setError] = useState<string>();
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    if (!name) return setError('Give the dashboard a name.');
    const live = f.get('live') === 'on' ? Number(f.get('interval')) : 0;
    if (f.get('live') === 'on' && !(Number.isInteger(live) && live >= 5 && live <= 86400)) return setError('Update every 5 to 86400 seconds.');
    onApply({
      Name: name,
      Description: String(f.get('description') ?? ''),
      Labels: parseLabels(String(f.get('labels') ?? '')),
      liveUpdateInterval: live,
      linkZooming: f.get('zoom') === 'on',
      range: f.get('keeprange') === 'on' ? current : undefined,
    });
  }
  return (
    <Dialog title="Dashboard settings" onClose={onClose} wide>
      <form className="entry-form" onSubmit={submit}>
        <label>
          Name
          <input name="name" defaultValue={initial.Name} maxLength={256} required data-autofocus />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={initial.Description} rows={2} />
        </label>
        <label>
          Labels
          <input name="labels" defaultValue={initial.Labels.join(', ')} />
          <span className="muted small">Separate labels with commas.</span>
        </label>
        <fieldset className="group-choices">
          <legend>Updates and time</legend>
          <label className="check">
            <input type="checkbox" name="live" defaultChecked={initial.liveUpdateInterval > 0} /> Update live every
            <input name="interval" type="number" min={5} max={86400} defaultValue={initial.liveUpdateInterval || 60} aria-label="Seconds between updates" className="narrow" />{' '}
            seconds
          </label>
          <label className="check">
            <input type="checkbox" name="zoom" defaultChecked={initial.linkZooming} /> Zooming one chart zooms every tile
          </label>
          <label className="check">
            <input type="checkbox" name="keeprange" /> Make “{rangeLabel(current, zone)}” the dashboard's time range
          </label>
        </fieldset>
        <FormFooter error={error} submit="Apply" onCancel={onClose} />
      </form>
    </Dialog>
  );
}
