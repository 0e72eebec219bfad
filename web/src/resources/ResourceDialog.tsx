import { FormEvent, useState } from 'react';
import { useAuth } from '../auth/AuthContext';
import { DropZone, UploadFooter } from '../common-upload/DropZone';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { useUpload } from '../common-upload/useUpload';
import { Dialog } from '../ui/Dialog';
import { createResource, ResourceInput, ResourceMeta, updateResource, uploadResource } from './resources-api';

/**
 * Creates a resource (no `resource`: name, description, sharing, and optionally its contents,
 * uploaded right after with a progress bar) or edits one's name, description and sharing.
 */
export function ResourceDialog({
  resource,
  maxSize,
  onSaved,
  onClose,
}: {
  resource?: ResourceMeta;
  maxSize?: number;
  onSaved(r: ResourceMeta, note: string): void;
  onClose(): void;
}) {
  const { user } = useAuth();
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Created, but its contents failed to upload: "Create" again uploads to this one (no duplicate).
  const [created, setCreated] = useState<ResourceMeta>();
  const up = useUpload();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    const sharing = readSharing(f, user.Admin);
    const input: ResourceInput = {
      ResourceName: String(f.get('name') ?? '').trim(),
      Description: String(f.get('description') ?? ''),
      GroupACL: sharing.gids,
      ...(sharing.global !== undefined && { Global: sharing.global }),
    };
    if (!input.ResourceName) return setError('Give the resource a name.');
    if (/[/\\]/.test(input.ResourceName)) return setError('A resource name cannot contain “/” or “\\”.');
    setBusy(true);
    setError(undefined);
    let saved: ResourceMeta;
    const existing = resource ?? created;
    try {
      saved = existing ? await updateResource(existing, input) : await createResource(input);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
      return;
    }
    if (!file) return onSaved(saved, `${resource ? 'Updated' : 'Created'} “${saved.ResourceName}”.`);
    const withContents = await up.run((onProgress, signal) => uploadResource(saved.GUID, file, onProgress, signal));
    if (withContents) return onSaved(withContents, `Created “${saved.ResourceName}” with its contents.`);
    // Created, but the contents did not arrive: say so; the empty resource stays, and "Create" retries the upload.
    setCreated(saved);
    setBusy(false);
    setError(`“${saved.ResourceName}” was created without contents. Choose “Create” to try the upload again, or close this and use “Upload” on it later.`);
  }

  return (
    <Dialog title={resource ? `Edit “${resource.ResourceName}”` : 'New resource'} onClose={onClose} wide>
      <form className="entry-form" onSubmit={submit}>
        <label>
          Name
          <input name="name" defaultValue={resource?.ResourceName ?? ''} required maxLength={255} data-autofocus />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={resource?.Description ?? ''} rows={2} />
        </label>
        <SharingFields gids={resource?.GroupACL} global={resource?.Global} />
        {!resource && <DropZone label="Contents (optional)" file={file} onFile={setFile} maxSize={maxSize} disabled={busy} error={fileError ?? up.error} onError={setFileError} />}
        <UploadFooter upload={up} error={error} submit={busy ? 'Saving…' : resource ? 'Save' : 'Create'} disabled={busy} onClose={onClose} close={created ? 'Close' : 'Cancel'} />
      </form>
    </Dialog>
  );
}
