import { useId } from 'react';
import { FileRejection, useDropzone } from 'react-dropzone';
import { formatBytes } from '../ui/time-format';
import './upload.css';
import { ErrorNote } from '../ui/ErrorNote';

/** Why a dropped file was refused, in words. */
export function rejectionMessage(rejections: FileRejection[], maxSize?: number): string {
  if (rejections.length > 1) return 'Drop one file at a time.';
  const code = rejections[0]?.errors[0]?.code;
  if (code === 'file-too-large' && maxSize) return `The file is larger than the limit of ${formatBytes(maxSize)}.`;
  if (code === 'too-many-files') return 'Drop one file at a time.';
  return rejections[0]?.errors[0]?.message ?? 'That file cannot be used.';
}

/**
 * One file, by drag and drop onto the zone or with the browser's file picker ("Choose a file…").
 * The choice is shown by name and size; refusals (too large, several files) in words.
 */
export function DropZone({
  label,
  file,
  onFile,
  maxSize,
  disabled,
  error,
  onError,
}: {
  /** what the file is for, e.g. "Contents of the resource" */
  label: string;
  file?: File;
  onFile(f: File): void;
  maxSize?: number;
  disabled?: boolean;
  error?: string;
  onError(message: string | undefined): void;
}) {
  const hint = useId();
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    multiple: false,
    maxSize,
    disabled,
    noClick: true,
    noKeyboard: true,
    onDropAccepted: (files) => {
      onError(undefined);
      if (files[0]) onFile(files[0]);
    },
    onDropRejected: (rejections) => onError(rejectionMessage(rejections, maxSize)),
  });
  return (
    <div className="drop-field">
      <div {...getRootProps({ className: isDragActive ? 'drop-zone active' : 'drop-zone', role: 'group', 'aria-label': label, 'aria-describedby': hint })}>
        <input {...getInputProps({ 'aria-label': label })} />
        <p id={hint} className="drop-hint">
          {isDragActive ? 'Drop the file here' : 'Drag a file here, or'}{' '}
          {!isDragActive && (
            <button type="button" onClick={open} disabled={disabled}>
              Choose a file…
            </button>
          )}
          {maxSize ? <span className="muted small"> (at most {formatBytes(maxSize)})</span> : null}
        </p>
        {file && (
          <p className="drop-choice">
            <strong>{file.name || 'unnamed file'}</strong> <span className="muted">{formatBytes(file.size)}</span>
          </p>
        )}
      </div>
      <ErrorNote message={error} />
    </div>
  );
}

/** An upload's progress bar with the figures in words. */
export function UploadProgressBar({ loaded, total }: { loaded: number; total: number }) {
  const pct = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : undefined;
  return (
    <div className="upload-progress">
      <progress aria-label="Upload progress" max={total > 0 ? total : undefined} value={total > 0 ? loaded : undefined} />
      <span className="muted small" aria-live="polite">
        {pct === undefined
          ? `Uploading… ${formatBytes(loaded)}`
          : pct === 100
            ? 'Uploaded; the service is storing it…'
            : `Uploading… ${pct} % (${formatBytes(loaded)} of ${formatBytes(total)})`}
      </span>
    </div>
  );
}

/**
 * The end of an upload form: the progress bar while it runs, the refusal in words, then "Cancel
 * upload" (while it runs) or `close` ("Cancel"), and the submit button.
 */
export function UploadFooter({
  upload,
  error,
  submit,
  disabled,
  onClose,
  close = 'Cancel',
}: {
  upload: { progress?: { loaded: number; total: number }; busy: boolean; cancel(): void };
  error?: string;
  submit: string;
  disabled: boolean;
  onClose(): void;
  close?: string;
}) {
  return (
    <>
      {upload.progress && <UploadProgressBar {...upload.progress} />}
      <ErrorNote message={error} />
      <div className="dialog-buttons">
        <button type="button" onClick={upload.busy ? upload.cancel : onClose}>
          {upload.busy ? 'Cancel upload' : close}
        </button>
        <button type="submit" className="primary" disabled={disabled}>
          {submit}
        </button>
      </div>
    </>
  );
}
