/**
 * An account's sign-in as an administrator reads it (issue 24, item 6): locked, blocked for a while
 * by failed sign-ins (anyone who knows the user name can cause that), or active, with the failed
 * sign-ins counted against it now. Unlocking (`DELETE /api/users/{id}/lock`) ends both.
 */
import { UserDetails } from '../api/types';
import { formatTime } from '../ui/time-format';

export type SignInState = { kind: 'locked' } | { kind: 'blocked'; until: string; failures: number } | { kind: 'active'; failures: number };

export function signInState(u: UserDetails, now = Date.now()): SignInState {
  if (u.Locked) return { kind: 'locked' };
  const until = u.LoginBlockedUntil ? Date.parse(u.LoginBlockedUntil) : NaN;
  if (until > now) return { kind: 'blocked', until: u.LoginBlockedUntil!, failures: u.FailedLogins ?? 0 };
  return { kind: 'active', failures: u.FailedLogins ?? 0 };
}

export const failedSignIns = (n: number): string => `${n} failed sign-in${n === 1 ? '' : 's'}`;

/**
 * When the block ends, to the minute after it (so trying at that minute works): "14:04" today in
 * the zone, else with its date ("2024-05-02 00:01").
 */
export function blockEnd(until: string, zone: string, now = Date.now()): string {
  const minute = new Date(Math.ceil(Date.parse(until) / 60_000) * 60_000);
  const shown = formatTime(minute, zone);
  const sameDay = shown.slice(0, 10) === formatTime(new Date(now), zone).slice(0, 10);
  return sameDay ? shown.slice(11, 16) : shown.slice(0, 16);
}

/** The Status column's words. */
export function signInStatus(s: SignInState, zone: string, now = Date.now()): string {
  switch (s.kind) {
    case 'locked':
      return 'Locked';
    case 'blocked':
      return `Sign-in blocked until ${blockEnd(s.until, zone, now)} (${failedSignIns(s.failures)})`;
    case 'active':
      return s.failures ? `Active (${failedSignIns(s.failures)})` : 'Active';
  }
}

/** Milliseconds until the first block of `users` ends (undefined: none), so the page can read them again then. */
export function nextBlockEnd(users: UserDetails[], now = Date.now()): number | undefined {
  const ends = users.map((u) => (u.LoginBlockedUntil && !u.Locked ? Date.parse(u.LoginBlockedUntil) - now : NaN)).filter((ms) => ms > 0);
  return ends.length ? Math.min(...ends) : undefined;
}
