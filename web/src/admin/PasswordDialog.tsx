import { useId } from 'react';
import { UserDetails } from '../api/types';
import { useAuth } from '../auth/AuthContext';
import { Dialog, FormFooter, FormWork, useFormAction } from '../ui/Dialog';
import { setPassword } from './admin-api';

/**
 * Sets a new password for an account. For one's own account the current password is asked too
 * (contract rule 5); the account's other sessions end (the service does that).
 */
export function PasswordDialog({ user, onSaved, onClose }: { user: UserDetails; onSaved(message: string): void; onClose(): void }) {
  const self = user.UID === useAuth().user.UID;
  const { error, busy, onSubmit } = useFormAction(act);
  const hint = useId();

  function act(f: FormData): FormWork {
    const pass = String(f.get('pass') ?? '');
    if (pass !== String(f.get('pass2') ?? '')) return 'The two passwords differ.';
    return async () => {
      await setPassword(user.UID, pass, self ? String(f.get('orig') ?? '') : undefined);
      onSaved(self ? 'Your password is changed; your other sessions have ended.' : `Set a new password for ${user.User}; their sessions have ended.`);
    };
  }

  return (
    <Dialog title={self ? 'Change your password' : `Reset the password of ${user.User}`} onClose={onClose}>
      <form className="entry-form" onSubmit={onSubmit}>
        {self && (
          <label>
            Current password
            <input name="orig" type="password" required autoComplete="current-password" data-autofocus />
          </label>
        )}
        <label>
          New password
          <input name="pass" type="password" required minLength={8} maxLength={72} autoComplete="new-password" aria-describedby={hint} data-autofocus={self ? undefined : true} />
        </label>
        <label>
          Repeat the new password
          <input name="pass2" type="password" required minLength={8} maxLength={72} autoComplete="new-password" />
        </label>
        <p id={hint} className="muted small hint">
          8 to 72 characters. {self ? 'Your other sessions end; this one stays.' : `Every session of ${user.User} ends at once.`}
        </p>
        <FormFooter error={error} disabled={busy} submit={busy ? 'Saving…' : 'Set password'} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
