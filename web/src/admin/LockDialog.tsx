import { useState } from 'react';
import { UserDetails } from '../api/types';
import { ActionFooter, Dialog } from '../ui/Dialog';
import { useCancellable } from '../ui/useCancellable';
import { sessionCount, setLocked } from './admin-api';
import { lockedMessage, sessions } from './user-edit';

type Phase = { kind: 'ask'; before?: number; error?: string; busy?: boolean } | { kind: 'done'; before?: number; after?: number; afterError?: string };

/**
 * Locks an account: says how many sessions it has open, locks it (the service ends them at once
 * and refuses new sign-ins), then counts again so the administrator sees them gone.
 */
export function LockDialog({ user, onDone, onClose }: { user: UserDetails; onDone(message: string): void; onClose(): void }) {
  const [phase, setPhase] = useState<Phase>({ kind: 'ask' });
  const [countError, setCountError] = useState<string>();

  useCancellable(
    () => sessionCount(user.UID),
    {
      answer: (n) => setPhase((p) => (p.kind === 'ask' ? { ...p, before: n } : p)),
      error: (err) => setCountError(`Its sessions could not be counted: ${err.message}`),
    },
    [user.UID],
  );

  async function lock() {
    if (phase.kind !== 'ask') return;
    const before = phase.before;
    setPhase({ ...phase, busy: true, error: undefined });
    try {
      await setLocked(user.UID, true);
    } catch (err) {
      return setPhase({ kind: 'ask', before, error: (err as Error).message });
    }
    let after: number | undefined;
    let afterError: string | undefined;
    try {
      after = await sessionCount(user.UID);
    } catch (err) {
      afterError = (err as Error).message;
    }
    setPhase({ kind: 'done', before, after, afterError });
    onDone(lockedMessage(user.User, before, after));
  }

  if (phase.kind === 'done')
    return (
      <Dialog title={`${user.User} is locked`} onClose={onClose}>
        <p role="status">{lockedMessage(user.User, phase.before, phase.after)}</p>
        {phase.afterError && (
          <p className="error" role="alert">
            The sessions could not be counted again: {phase.afterError}
          </p>
        )}
        <dl className="session-counts">
          <dt>Open sessions before</dt>
          <dd>{phase.before ?? 'unknown'}</dd>
          <dt>Open sessions now</dt>
          <dd>{phase.after ?? 'unknown'}</dd>
        </dl>
        <div className="dialog-buttons">
          <button type="button" className="primary" onClick={onClose} data-autofocus>
            Close
          </button>
        </div>
      </Dialog>
    );

  return (
    <Dialog title={`Lock ${user.User}`} onClose={onClose}>
      <p>Locking ends every session of {user.User} at once and refuses new sign-ins until an administrator unlocks the account. Their API tokens stop working too.</p>
      <p aria-live="polite">{phase.before === undefined ? (countError ?? 'Counting open sessions…') : `${user.User} has ${sessions(phase.before)} open now.`}</p>
      <ActionFooter error={phase.error} action={phase.busy ? 'Locking…' : 'Lock'} busy={phase.busy} onAction={() => void lock()} onCancel={onClose} />
    </Dialog>
  );
}
