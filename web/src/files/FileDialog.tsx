import { FormEvent, useId, useRef, useState } from 'react';
import { useAuth } from '../auth/AuthContext';
import { DropZone, UploadFooter } from '../common-upload/DropZone';
import { readSharing, SharingFields } from '../ui/SharingFields';
import { useUpload } from '../common-upload/useUpload';
import { Dialog } from '../ui/Dialog';
import { createFile, nameFromFile, parseLabels, updateFile, UserFile, UserFileInput } from './files-api';

/**
 * Uploads a new file (no `file`: drop or pick it, name, description, labels, sharing; a progress
 * bar while it goes) or edits a file's metadata and sharing.
 */
export function FileDialog({
  file: existing,
  admin,
  maxSize,
  onSaved,
  onClose,
}: {
  file?: UserFile;
  admin: boolean;
  maxSize?: number;
  onSaved(f: UserFile, note: string): void;
  onClose(): void;
}) {
  const { user } = useAuth();
  const [picked, setPicked] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const hint = useId();
  const up = useUpload();

  function pick(f: File) {
    setPicked(f);
    // The name follows the picked file until the person types one.
    if (nameRef.current && !nameRef.current.dataset.typed) nameRef.current.value = nameFromFile(f.name);
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    const f = new FormData(e.currentTarget);
    const sharing = readSharing(f, user.Admin);
    const meta: UserFileInput = {
      Name: String(f.get('name') ?? '').trim(),
      Desc: String(f.get('desc') ?? ''),
      Labels: parseLabels(String(f.get('labels') ?? '')),
      GIDs: sharing.gids,
      ...(sharing.global !== undefined && { Global: sharing.global }),
    };
    if (!existing && !picked) return setFileError('Choose a file to upload.');
    if (!meta.Name) return setError('Give the file a name.');
    if (/[/\\]/.test(meta.Name)) return setError('A file name cannot contain “/” or “\\”.');
    setError(undefined);
    if (existing) {
      setBusy(true);
      try {
        const saved = await updateFile(existing, admin, meta);
        onSaved(saved, `Updated “${saved.Name}”.`);
      } catch (err) {
        setError((err as Error).message);
        setBusy(false);
      }
      return;
    }
    setBusy(true);
    const saved = await up.run((onProgress, signal) => createFile(picked!, meta, onProgress, signal));
    if (saved) return onSaved(saved, `Uploaded “${saved.Name}”.`);
    setBusy(false);
  }

  return (
    <Dialog title={existing ? `Edit “${existing.Name}”` : 'Upload a file'} onClose={up.busy ? up.cancel : onClose} wide>
      <form className="entry-form" onSubmit={submit}>
        {!existing && <DropZone label="File to upload" file={picked} onFile={pick} maxSize={maxSize} disabled={busy} error={fileError ?? up.error} onError={setFileError} />}
        <label>
          Name
          <input
            ref={nameRef}
            name="name"
            defaultValue={existing?.Name ?? ''}
            required
            maxLength={255}
            data-autofocus={existing ? true : undefined}
            onInput={(e) => (e.currentTarget.dataset.typed = '1')}
          />
        </label>
        <label>
          Description
          <textarea name="desc" defaultValue={existing?.Desc ?? ''} rows={2} />
        </label>
        <label>
          Labels
          <input name="labels" defaultValue={(existing?.Labels ?? []).join(', ')} aria-describedby={hint} />
          <span id={hint} className="muted small">
            Separate labels with commas.
          </span>
        </label>
        <SharingFields gids={existing?.GIDs} global={existing?.Global} />
        <UploadFooter upload={up} error={error} submit={up.busy ? 'Uploading…' : busy ? 'Saving…' : existing ? 'Save' : 'Upload'} disabled={busy} onClose={onClose} />
      </form>
    </Dialog>
  );
}
