import { FormEvent, useState } from 'react';
import { Dialog, FormFooter } from '../ui/Dialog';
import { parseLabels } from '../library/library-api';
import { emptyData } from './dashboard-data';
import { createDashboard } from './dashboards-api';

/** A new, empty dashboard: name, description, labels. Resolves with its ID. */
export function NewDashboardDialog({ onCreated, onClose }: { onCreated(id: number, name: string): void; onClose(): void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    if (!name) return setError('Give the dashboard a name.');
    setBusy(true);
    setError(undefined);
    try {
      const id = await createDashboard({
        Name: name,
        Description: String(f.get('description') ?? ''),
        Labels: parseLabels(String(f.get('labels') ?? '')),
        GIDs: [],
        Data: emptyData(),
      });
      onCreated(id, name);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }
  return (
    <Dialog title="New dashboard" onClose={onClose}>
      <form className="entry-form" onSubmit={submit}>
        <label>
          Name
          <input name="name" maxLength={256} required data-autofocus />
        </label>
        <label>
          Description
          <textarea name="description" rows={2} />
        </label>
        <label>
          Labels
          <input name="labels" />
          <span className="muted small">Separate labels with commas.</span>
        </label>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Creating…' : 'Create'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
