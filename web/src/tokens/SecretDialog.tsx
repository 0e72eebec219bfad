import { useId, useRef, useState } from 'react';
import { ApiTokenWithSecret } from '../api/types';
import { Dialog } from '../ui/Dialog';
import { tokenExamples } from './token-examples';

/**
 * The secret of a token just created or refreshed: the only time the service hands it out. It
 * lives in this dialog's props only; closing the dialog forgets it.
 */
export function SecretDialog({ token, refreshed, onClose }: { token: ApiTokenWithSecret; refreshed?: boolean; onClose(): void }) {
  const [copied, setCopied] = useState<string>();
  const field = useRef<HTMLInputElement>(null);
  const warning = useId();

  async function copy() {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied('Copied to the clipboard.');
    } catch {
      field.current?.focus();
      field.current?.select();
      setCopied('The browser did not allow copying: the secret is selected, press Ctrl+C (⌘C) to copy it.');
    }
  }

  return (
    <Dialog title={refreshed ? `New secret for “${token.name}”` : `Token “${token.name}” created`} onClose={onClose} wide>
      <p id={warning} className="notice secret-warning">
        <strong>Copy the secret now: you will not see it again.</strong> The service keeps only a fingerprint of it; if it is lost, refresh the token for a new one.
        {refreshed ? ' The previous secret has stopped working.' : ''}
      </p>
      <div className="secret-row">
        <label>
          Secret
          <input ref={field} className="secret" readOnly value={token.token} aria-describedby={warning} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        </label>
        <button type="button" className="primary" onClick={() => void copy()} data-autofocus>
          Copy
        </button>
      </div>
      <p role="status" className="muted small">
        {copied}
      </p>
      <p className="small">
        Send it in the <code>Service-Token</code> header of each request, for example:
      </p>
      <ul className="examples">
        {tokenExamples(window.location.origin, token.token, token.capabilities).map((ex) => (
          <li key={ex.command}>
            <span className="muted small">{ex.what}</span>
            <code>{ex.command}</code>
          </li>
        ))}
      </ul>
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>
          I have copied it, close
        </button>
      </div>
    </Dialog>
  );
}
