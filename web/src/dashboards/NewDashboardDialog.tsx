import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { parseLabels } from '../library/library-api';
import { emptyData } from './dashboard-data';
import { createDashboard } from './dashboards-api';

/** A new, empty dashboard: name, description, labels. Resolves with its ID. */
export function NewDashboardDialog({ onCreated, onClose }: { onCreated(id: number, name: string): void; onClose(): void }) {
  const { error, busy, onSubmit } = useFormAction(act);
  function act(f: FormData): FormWork {
    const name = String(f.get('name') ?? '').trim();
    if (!name) return 'Give the dashboard a name.';
    return async () => {
      const id = await createDashboard({
        Name: name,
        Description: String(f.get('description') ?? ''),
        Labels: parseLabels(String(f.get('labels') ?? '')),
        GIDs: [],
        Data: emptyData(),
      });
      onCreated(id, name);
    };
  }
  return (
    <Dialog title="New dashboard" onClose={onClose}>
      <form className="entry-form" onSubmit={onSubmit}>
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
