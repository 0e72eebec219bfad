import { UserDetails } from '../api/types';
import { usePrefs } from '../prefs/PrefsContext';
import { blockEnd, failedSignIns, signInState } from './sign-in-state';

/**
 * The Status cell of a user: Locked, "Sign-in blocked until 14:04 (5 failed sign-ins)" while too
 * many failed sign-ins refuse even the right password, or Active (with the failures counted now).
 */
export function UserStatus({ user }: { user: UserDetails }) {
  const { prefs } = usePrefs();
  const s = signInState(user);
  switch (s.kind) {
    case 'locked':
      return <span className="badge locked-badge">Locked</span>;
    case 'blocked':
      return (
        <>
          <span className="badge blocked-badge">Sign-in blocked</span> <span className="unbroken">until {blockEnd(s.until, prefs.timeZone)}</span>{' '}
          <span className="unbroken">({failedSignIns(s.failures)})</span>
        </>
      );
    case 'active':
      return s.failures ? (
        <>
          Active <span className="muted unbroken">({failedSignIns(s.failures)})</span>
        </>
      ) : (
        <>Active</>
      );
  }
}
