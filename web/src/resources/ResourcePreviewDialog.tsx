import { useMemo, useState } from 'react';
import { base64ToBytes, bytesAsText, hexDump, looksLikeText } from '../common-upload/bytes';
import '../common-upload/upload.css';
import { Dialog } from '../ui/Dialog';
import { useCancellable } from '../ui/useCancellable';
import { formatBytes } from '../ui/time-format';
import { ContentTypeAnswer, ResourceMeta, resourceContentType } from './resources-api';
import { ErrorNote } from '../ui/ErrorNote';

const PREVIEW_BYTES = 1024;

/**
 * What a resource holds (GET …/contenttype): the detected content type and its leading bytes,
 * as text or as a hex dump. Shown as plain text only, whatever the contents.
 */
export function ResourcePreviewDialog({ resource, onClose }: { resource: ResourceMeta; onClose(): void }) {
  const [answer, setAnswer] = useState<ContentTypeAnswer>();
  const [error, setError] = useState<string>();
  const [view, setView] = useState<'text' | 'hex'>();

  useCancellable(() => resourceContentType(resource.GUID, PREVIEW_BYTES), { answer: setAnswer, error: (err) => setError(`The preview could not be read: ${err.message}`) }, [
    resource.GUID,
  ]);

  const bytes = useMemo(() => (answer ? base64ToBytes(answer.Body) : undefined), [answer]);
  const textual = useMemo(() => (bytes ? looksLikeText(bytes) : true), [bytes]);
  const shown = view ?? (textual ? 'text' : 'hex');

  return (
    <Dialog title={`Preview of “${resource.ResourceName}”`} onClose={onClose} wide>
      <ErrorNote message={error} />
      {!answer && !error && <p className="muted">Reading the contents…</p>}
      {answer && bytes && (
        <>
          <dl className="preview-facts" aria-label="Content facts">
            <dt>Content type</dt>
            <dd>{answer.ContentType || 'unknown'}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(resource.Size)}</dd>
            <dt>SHA-256</dt>
            <dd className="mono">{resource.Hash || '—'}</dd>
          </dl>
          {bytes.length === 0 ? (
            <p className="empty">The resource has no contents yet.</p>
          ) : (
            <>
              <div className="toolbar">
                <span className="muted small">
                  {bytes.length < resource.Size ? `The first ${formatBytes(bytes.length)} of ${formatBytes(resource.Size)}` : 'All of it'}, shown as
                </span>
                <div className="preview-tabs" role="group" aria-label="Show the bytes as">
                  <button type="button" aria-pressed={shown === 'text'} onClick={() => setView('text')}>
                    Text
                  </button>
                  <button type="button" aria-pressed={shown === 'hex'} onClick={() => setView('hex')}>
                    Hex
                  </button>
                </div>
              </div>
              <pre className={shown === 'hex' ? 'byte-preview hex' : 'byte-preview'} aria-label={shown === 'hex' ? 'Leading bytes in hex' : 'Leading bytes as text'} tabIndex={0}>
                {shown === 'hex' ? hexDump(bytes).join('\n') : bytesAsText(bytes)}
              </pre>
            </>
          )}
        </>
      )}
      <div className="dialog-buttons">
        <button type="button" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
