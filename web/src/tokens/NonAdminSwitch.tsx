import { useState } from 'react';
import { getNonAdminTokens, setNonAdminTokens } from './tokens-api';
import { ErrorNote } from '../ui/ErrorNote';
import { useCancellable } from '../ui/useCancellable';

/**
 * The administrators' switch: may non-admin users use API tokens? Off, they get 403 from the token
 * API and their tokens are refused (kept, and working again when it is turned back on).
 */
export function NonAdminSwitch() {
  const [on, setOn] = useState<boolean>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();

  useCancellable(getNonAdminTokens, { answer: setOn, error: (err) => setError(`The token setting could not be read: ${err.message}`) }, []);

  async function change(next: boolean) {
    setBusy(true);
    setError(undefined);
    setOn(next); // at once, as a switch does; put back if the service refuses
    try {
      setOn(await setNonAdminTokens(next));
      setNote(next ? 'Non-admin users may use API tokens again.' : 'API tokens are now off for non-admin users: their tokens are refused until you turn this back on.');
    } catch (err) {
      setOn(!next);
      setError(`The token setting could not be changed: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="non-admin-switch">
      <label className="check">
        <input type="checkbox" role="switch" checked={on ?? false} disabled={on === undefined || busy} onChange={(e) => void change(e.target.checked)} />
        Non-admin users may use API tokens
      </label>
      <span role="status" className="muted small">
        {note}
      </span>
      <ErrorNote message={error} />
    </div>
  );
}
