import { AuthContext } from '../identity/auth.types';
import { AppError } from '../common/errors/app-error';
import { canReadShared, requireMayShareWith, unshareableGroups } from './shareable';

const auth = (uid: number, gids: number[] = [], isAdmin = false): AuthContext => ({ uid, username: `u${uid}`, accountAdmin: isAdmin, isAdmin, gids });

const refusal = (fn: () => void): { status: number; message: string } | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return { status: (e as AppError).status, message: (e as AppError).message };
  }
};

describe('shareable objects', () => {
  it('are read by the owner, members of a group they are shared with, everyone when global, and admins', () => {
    const obj = { uid: 10, gids: [5], global: false };
    expect([auth(10), auth(11, [5]), auth(12, [6]), auth(1, [], true)].map((a) => canReadShared(a, obj))).toEqual([true, true, false, true]);
    expect(canReadShared(auth(12), { ...obj, global: true })).toBe(true);
  });

  it('non-admins share only with groups they belong to; the refusal names every other group', () => {
    expect(unshareableGroups(auth(10, [1, 2]), [1, 3, 4])).toEqual([3, 4]);
    expect(unshareableGroups(auth(1, [], true), [1, 3])).toEqual([]);
    expect(refusal(() => requireMayShareWith(auth(10, [5]), [5]))).toBeUndefined();
    expect(refusal(() => requireMayShareWith(auth(10, [5]), [5, 6, 7]))).toEqual({ status: 403, message: 'You may share only with groups you belong to (not 6, 7)' });
    expect(refusal(() => requireMayShareWith(auth(1, [], true), [99]))).toBeUndefined();
  });
});
