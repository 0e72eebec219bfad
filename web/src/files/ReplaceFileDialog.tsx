import { FormEvent, useState } from 'react';
import { DropZone, UploadFooter } from '../common-upload/DropZone';
import { useUpload } from '../common-upload/useUpload';
import { Dialog } from '../ui/Dialog';
import { formatBytes } from '../ui/time-format';
import { replaceFile, UserFile } from './files-api';

/** Replaces a file's contents, keeping its name, GUID and sharing. */
export function ReplaceFileDialog({
  file,
  admin,
  maxSize,
  onSaved,
  onClose,
}: {
  file: UserFile;
  admin: boolean;
  maxSize?: number;
  onSaved(f: UserFile, note: string): void;
  onClose(): void;
}) {
  const [picked, setPicked] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const up = useUpload();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    if (!picked) return setFileError('Choose a file first.');
    const saved = await up.run((onProgress, signal) => replaceFile(file, admin, picked, onProgress, signal));
    if (saved) onSaved(saved, `Replaced the contents of “${saved.Name}” (${formatBytes(saved.Size)}).`);
  }

  return (
    <Dialog title={`Replace the contents of “${file.Name}”`} onClose={up.busy ? up.cancel : onClose} wide>
      <form className="entry-form" onSubmit={submit}>
        <p className="muted small">The name, description, labels and sharing stay; only the contents ({formatBytes(file.Size)} now) change.</p>
        <DropZone label="New contents" file={picked} onFile={setPicked} maxSize={maxSize} disabled={up.busy} error={fileError ?? up.error} onError={setFileError} />
        <UploadFooter upload={up} submit={up.busy ? 'Uploading…' : 'Replace'} disabled={up.busy || !picked} onClose={onClose} />
      </form>
    </Dialog>
  );
}
