import { AppError } from '../common/errors/app-error';
import { AuthContext } from '../identity/auth.types';

/** A caller for the access specs: a user `uid` in groups `gids`, an admin when `isAdmin`. */
export const caller = (uid: number, gids: number[] = [], isAdmin = false): AuthContext => ({ uid, username: `u${uid}`, accountAdmin: isAdmin, isAdmin, gids });

/** The HTTP status of the refusal `fn` throws, 200 when it throws none. */
export function statusOf(fn: () => unknown): number {
  try {
    fn();
    return 200;
  } catch (e) {
    return (e as AppError).status;
  }
}
