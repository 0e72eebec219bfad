import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { cloneResource, ResourceMeta } from './resources-api';

/** Copies a resource (metadata and contents) under a new name; the copy belongs to the person. */
export function CloneResourceDialog({
  resource,
  suggested,
  onSaved,
  onClose,
}: {
  resource: ResourceMeta;
  suggested: string;
  onSaved(r: ResourceMeta, note: string): void;
  onClose(): void;
}) {
  const { error, busy, onSubmit } = useFormAction(act);

  function act(f: FormData): FormWork {
    const name = String(f.get('name') ?? '').trim();
    if (!name) return 'Give the copy a name.';
    return async () => {
      const copy = await cloneResource(resource.GUID, name);
      onSaved(copy, `Cloned “${resource.ResourceName}” as “${copy.ResourceName}”.`);
    };
  }

  return (
    <Dialog title={`Clone “${resource.ResourceName}”`} onClose={onClose}>
      <form className="entry-form" onSubmit={onSubmit}>
        <label>
          Name of the copy
          <input name="name" defaultValue={suggested} required maxLength={255} data-autofocus />
        </label>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Cloning…' : 'Clone'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
