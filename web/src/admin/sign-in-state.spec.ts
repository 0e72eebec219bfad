import { UserDetails } from '../api/types';
import { blockEnd, nextBlockEnd, signInState, signInStatus } from './sign-in-state';

const base: UserDetails = { UID: 2, User: 'frank', Name: '', Email: '', Admin: false, Locked: false, Groups: [] };
const NOW = Date.parse('2024-05-01T13:50:00Z');

describe("an account's sign-in, as an administrator reads it", () => {
  it('is blocked while LoginBlockedUntil is ahead, shown to the minute after it ends', () => {
    const u = { ...base, FailedLogins: 5, LoginBlockedUntil: '2024-05-01T14:03:20.000Z' };
    expect(signInState(u, NOW)).toEqual({ kind: 'blocked', until: u.LoginBlockedUntil, failures: 5 });
    expect(signInStatus(signInState(u, NOW), 'UTC', NOW)).toBe('Sign-in blocked until 14:04 (5 failed sign-ins)');
    expect(signInStatus(signInState(u, NOW), 'Europe/Berlin', NOW)).toBe('Sign-in blocked until 16:04 (5 failed sign-ins)');
    // Over midnight in the zone: with its date.
    expect(blockEnd('2024-05-01T23:10:00Z', 'UTC', Date.parse('2024-05-01T23:00:00Z'))).toBe('23:10');
    expect(blockEnd('2024-05-02T00:00:30Z', 'UTC', Date.parse('2024-05-01T23:55:00Z'))).toBe('2024-05-02 00:01');
  });

  it('is active once the block has ended, with failures still counted; locked wins over both', () => {
    const ended = { ...base, FailedLogins: 5, LoginBlockedUntil: '2024-05-01T13:49:00Z' };
    expect(signInStatus(signInState(ended, NOW), 'UTC', NOW)).toBe('Active (5 failed sign-ins)');
    expect(signInStatus(signInState({ ...base, FailedLogins: 1 }, NOW), 'UTC', NOW)).toBe('Active (1 failed sign-in)');
    expect(signInStatus(signInState(base, NOW), 'UTC', NOW)).toBe('Active');
    expect(signInState({ ...ended, Locked: true, LoginBlockedUntil: '2024-05-01T14:00:00Z' }, NOW)).toEqual({ kind: 'locked' });
  });

  it('knows when the first block ends, so the page reads the users again then', () => {
    const users = [
      { ...base, LoginBlockedUntil: '2024-05-01T14:00:00Z' },
      { ...base, UID: 3, LoginBlockedUntil: '2024-05-01T13:55:00Z' },
      { ...base, UID: 4, Locked: true, LoginBlockedUntil: '2024-05-01T13:51:00Z' },
      { ...base, UID: 5, LoginBlockedUntil: '2024-05-01T13:00:00Z' },
    ];
    expect(nextBlockEnd(users, NOW)).toBe(5 * 60_000);
    expect(nextBlockEnd([base], NOW)).toBeUndefined();
  });
});
