import { AuthContext } from '../../auth/auth.types';

/** What most shared objects have: an owner, groups they are shared with, a global flag. */
export interface Shareable {
  uid: number;
  gids: readonly number[];
  global: boolean;
}

export const isOwner = (auth: AuthContext, obj: Pick<Shareable, 'uid'>): boolean => obj.uid === auth.uid;

/** The object is shared with a group the caller belongs to (membership read on this request). */
export const sharesGroupWith = (auth: AuthContext, obj: Pick<Shareable, 'gids'>): boolean => obj.gids.some((g) => auth.gids.includes(g));

/** Owner, group member, global reader, or admin. */
export const canReadShared = (auth: AuthContext, obj: Shareable): boolean =>
  auth.isAdmin || isOwner(auth, obj) || obj.global || sharesGroupWith(auth, obj);
