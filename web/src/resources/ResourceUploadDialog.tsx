import { FormEvent, useState } from 'react';
import { DropZone, UploadFooter } from '../common-upload/DropZone';
import { useUpload } from '../common-upload/useUpload';
import { Dialog } from '../ui/Dialog';
import { formatBytes } from '../ui/time-format';
import { ResourceMeta, uploadResource } from './resources-api';

/** Replaces a resource's contents (PUT …/raw) with a dropped or picked file, with a progress bar. */
export function ResourceUploadDialog({
  resource,
  maxSize,
  onSaved,
  onClose,
}: {
  resource: ResourceMeta;
  maxSize?: number;
  onSaved(r: ResourceMeta, note: string): void;
  onClose(): void;
}) {
  const [file, setFile] = useState<File>();
  const [fileError, setFileError] = useState<string>();
  const up = useUpload();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    e.stopPropagation();
    if (!file) return setFileError('Choose a file first.');
    const saved = await up.run((onProgress, signal) => uploadResource(resource.GUID, file, onProgress, signal));
    if (saved) onSaved(saved, `Uploaded ${formatBytes(saved.Size)} to “${saved.ResourceName}” (version ${saved.VersionNumber}).`);
  }

  return (
    <Dialog title={`Upload contents of “${resource.ResourceName}”`} onClose={up.busy ? up.cancel : onClose} wide>
      <form className="entry-form" onSubmit={submit}>
        <p className="muted small">{resource.Size > 0 ? `The new file replaces the current contents (${formatBytes(resource.Size)}).` : 'The resource has no contents yet.'}</p>
        <DropZone label="New contents" file={file} onFile={setFile} maxSize={maxSize} disabled={up.busy} error={fileError ?? up.error} onError={setFileError} />
        <UploadFooter upload={up} submit={up.busy ? 'Uploading…' : 'Upload'} disabled={up.busy || !file} onClose={onClose} />
      </form>
    </Dialog>
  );
}
