import { FormEvent, useState } from 'react';
import { Dialog, FormFooter } from '../ui/Dialog';
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
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const name = String(new FormData(e.currentTarget).get('name') ?? '').trim();
    if (!name) return setError('Give the copy a name.');
    setBusy(true);
    setError(undefined);
    try {
      const copy = await cloneResource(resource.GUID, name);
      onSaved(copy, `Cloned “${resource.ResourceName}” as “${copy.ResourceName}”.`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <Dialog title={`Clone “${resource.ResourceName}”`} onClose={onClose}>
      <form className="entry-form" onSubmit={submit}>
        <label>
          Name of the copy
          <input name="name" defaultValue={suggested} required maxLength={255} data-autofocus />
        </label>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Cloning…' : 'Clone'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
