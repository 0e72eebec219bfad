import { GroupDetails } from '../api/types';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { createGroup, updateGroup } from './admin-api';

/** Creates a group (no `group`) or renames it and changes its description. */
export function GroupDialog({ group, onSaved, onClose }: { group?: GroupDetails; onSaved(message: string): void; onClose(): void }) {
  const { error, busy, onSubmit } = useFormAction(act);

  function act(f: FormData): FormWork {
    const name = String(f.get('name') ?? '').trim();
    const desc = String(f.get('desc') ?? '');
    if (!name) return 'Give the group a name.';
    return async () => {
      if (group) {
        await updateGroup(group.GID, name, desc);
        onSaved(name === group.Name ? `Saved ${name}.` : `Renamed ${group.Name} to ${name}.`);
      } else {
        await createGroup(name, desc);
        onSaved(`Created the group ${name}.`);
      }
    };
  }

  return (
    <Dialog title={group ? `Edit the group ${group.Name}` : 'New group'} onClose={onClose}>
      <form className="entry-form" onSubmit={onSubmit}>
        <label>
          Name
          <input name="name" defaultValue={group?.Name ?? ''} required maxLength={128} autoComplete="off" data-autofocus />
        </label>
        <label>
          Description
          <textarea name="desc" defaultValue={group?.Desc ?? ''} rows={2} maxLength={4096} />
        </label>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : group ? 'Save' : 'Create group'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
