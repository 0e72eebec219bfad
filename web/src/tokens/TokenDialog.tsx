import { useId, useState } from 'react';
import { ApiToken, ApiTokenWithSecret } from '../api/types';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { usePrefs } from '../prefs/PrefsContext';
import { formatTime } from '../ui/time-format';
import { CapabilityArea, TOKEN_TEMPLATES, templateCaps } from './capability-areas';
import { CapabilityPicker } from './CapabilityPicker';
import { ExpiryField } from './ExpiryField';
import { ExpiryChoice, expiryValue } from './expiry';
import { createToken, TokenInput, updateToken } from './tokens-api';
import { ErrorNote } from '../ui/ErrorNote';

/**
 * Creates a token (no `token`) or changes one: name, description, capabilities by area, expiry.
 * A new token's secret goes to `onCreated`, the only time the service hands it out.
 */
export function TokenDialog({
  token,
  areas,
  areasError,
  onCreated,
  onSaved,
  onClose,
}: {
  token?: ApiToken;
  areas: CapabilityArea[];
  areasError?: string;
  onCreated(t: ApiTokenWithSecret): void;
  onSaved(message: string): void;
  onClose(): void;
}) {
  const { prefs } = usePrefs();
  const [caps, setCaps] = useState(() => new Set(token?.capabilities ?? []));
  const [choice, setChoice] = useState<ExpiryChoice>(token ? 'keep' : '90');
  const [day, setDay] = useState('');
  const { error, busy, onSubmit } = useFormAction(act);
  const capsLabel = useId();

  function act(f: FormData): FormWork {
    const name = String(f.get('name') ?? '').trim();
    if (!name) return 'Give the token a name.';
    if (!caps.size) return 'Choose at least one capability: a token without any opens nothing.';
    let input: TokenInput;
    try {
      input = { name, description: String(f.get('description') ?? ''), capabilities: [...caps], expiresAt: expiryValue(choice, day, new Date(), prefs.timeZone) };
    } catch (err) {
      return (err as Error).message;
    }
    if (input.expiresAt === undefined) delete input.expiresAt;
    return async () => {
      if (token) {
        await updateToken(token.id, input);
        onSaved(`Saved the token “${name}”.`);
      } else onCreated(await createToken(input));
    };
  }

  const current = token ? (token.expiresAt ? formatTime(token.expiresAt, prefs.timeZone).slice(0, 16) : 'never') : undefined;
  return (
    <Dialog title={token ? `Edit the token “${token.name}”` : 'New API token'} onClose={onClose} wide>
      <form className="entry-form token-form" onSubmit={onSubmit}>
        <label>
          Name
          <input name="name" defaultValue={token?.name ?? ''} required maxLength={256} autoComplete="off" data-autofocus placeholder="e.g. web01 log shipper" />
        </label>
        <label>
          Description
          <textarea name="description" defaultValue={token?.description ?? ''} rows={2} maxLength={4096} placeholder="What uses it, who to ask" />
        </label>
        <div role="group" aria-labelledby={capsLabel} className="capabilities">
          <div className="capabilities-head">
            <span id={capsLabel} className="field-title">
              Capabilities
            </span>
            <span className="templates" role="group" aria-label="Start from">
              <span className="muted small">Start from:</span>
              {TOKEN_TEMPLATES.map((t) => (
                <button key={t.name} type="button" className="chip" onClick={() => setCaps(new Set(templateCaps(t.caps, areas)))}>
                  {t.name}
                </button>
              ))}
              <button type="button" className="chip" onClick={() => setCaps(new Set())}>
                None
              </button>
            </span>
          </div>
          <p className="muted small">A token reaches only what its capabilities name, never more than its owner may, and never an administrator&apos;s pages.</p>
          <ErrorNote message={areasError} />
          <CapabilityPicker areas={areas} selected={caps} onChange={setCaps} />
          <p className="muted small" aria-live="polite">
            {caps.size} chosen
          </p>
        </div>
        <ExpiryField choice={choice} day={day} onChoice={setChoice} onDay={setDay} current={current} />
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : token ? 'Save' : 'Create token'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
