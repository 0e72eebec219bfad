import { useState } from 'react';
import { ApiToken, ApiTokenWithSecret } from '../api/types';
import { ActionFooter, Dialog } from '../ui/Dialog';
import { usePrefs } from '../prefs/PrefsContext';
import { ExpiryField } from './ExpiryField';
import { ExpiryChoice, expiryValue } from './expiry';
import { refreshToken } from './tokens-api';

/** Refresh: a new secret with a new expiry; the old secret stops working at once. */
export function RefreshDialog({ token, onRefreshed, onClose }: { token: ApiToken; onRefreshed(t: ApiTokenWithSecret): void; onClose(): void }) {
  const { prefs } = usePrefs();
  const [choice, setChoice] = useState<ExpiryChoice>('90');
  const [day, setDay] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function refresh() {
    let expiresAt: string | null;
    try {
      expiresAt = expiryValue(choice, day, new Date(), prefs.timeZone) ?? null;
    } catch (err) {
      return setError((err as Error).message);
    }
    setError(undefined);
    setBusy(true);
    try {
      onRefreshed(await refreshToken(token.id, expiresAt));
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <Dialog title={`Refresh the token “${token.name}”`} onClose={onClose}>
      <p>
        Refreshing issues a new secret with a new expiry. <strong>The current secret stops working at once</strong>: whatever uses it needs the new one.
      </p>
      <div className="entry-form">
        <ExpiryField choice={choice} day={day} onChoice={setChoice} onDay={setDay} />
      </div>
      <ActionFooter error={error} action={busy ? 'Refreshing…' : 'Refresh'} tone="primary" busy={busy} onAction={() => void refresh()} onCancel={onClose} />
    </Dialog>
  );
}
