import { UserDetails } from '../api/types';
import { ActionDialog } from '../ui/Dialog';
import { usePrefs } from '../prefs/PrefsContext';
import { setLocked } from './admin-api';
import { blockEnd } from './sign-in-state';

/**
 * Allows sign-in to an account blocked by failed sign-ins, after asking: unlocking
 * (`DELETE /api/users/{id}/lock`) also forgets the failures (README, "Failed sign-ins, seen and
 * cleared by admins").
 */
export function AllowSignInDialog({ user, onDone, onClose }: { user: UserDetails; onDone(message: string): void; onClose(): void }) {
  const { prefs } = usePrefs();
  const until = user.LoginBlockedUntil ? blockEnd(user.LoginBlockedUntil, prefs.timeZone) : 'later';
  const times = user.FailedLogins ?? 0;

  return (
    <ActionDialog
      title={`Allow sign-in for ${user.User}`}
      message={
        <>
          {user.User} cannot sign in until {until}: someone typed a wrong password for this account {times === 1 ? 'once' : `${times} times`}. Allow sign-in now? The failed
          sign-ins are forgotten; if someone is guessing the password, set a new one as well.
        </>
      }
      action="Allow sign-in"
      busyAction="Allowing…"
      tone="primary"
      run={() => setLocked(user.UID, false)}
      onDone={() => onDone(`${user.User} can sign in again: their failed sign-ins are forgotten.`)}
      onClose={onClose}
    />
  );
}
