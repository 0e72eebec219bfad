import { AppError } from '../common/errors/app-error';
import { requireMayShareWith, unshareableGroups, widensSharing } from './shareable';
import { caller } from './access.spec-helper';

const auth = caller;

const refusal = (fn: () => void): { status: number; message: string } | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return { status: (e as AppError).status, message: (e as AppError).message };
  }
};

describe('shareable objects', () => {
  it('non-admins share only with groups they belong to; the refusal names every other group', () => {
    expect(unshareableGroups(auth(10, [1, 2]), [1, 3, 4])).toEqual([3, 4]);
    expect(unshareableGroups(auth(1, [], true), [1, 3])).toEqual([]);
    expect(refusal(() => requireMayShareWith(auth(10, [5]), [5]))).toBeUndefined();
    expect(refusal(() => requireMayShareWith(auth(10, [5]), [5, 6, 7]))).toEqual({ status: 403, message: 'You may share only with groups you belong to (not 6, 7)' });
    expect(refusal(() => requireMayShareWith(auth(1, [], true), [99]))).toBeUndefined();
  });

  it('a change widens sharing when it adds a group, turns Global on or moves to another GUID', () => {
    const before = { guid: 'g', gids: [5], global: false };
    expect([{ gids: [5] }, { gids: [] }, { global: false }, { guid: 'g' }].map((p) => widensSharing(before, p))).toEqual([false, false, false, false]);
    expect([{ gids: [5, 6] }, { global: true }, { guid: 'h' }].map((p) => widensSharing(before, p))).toEqual([true, true, true]);
    expect(widensSharing({ ...before, gids: null }, { gids: [5] })).toBe(true);
  });
});
