import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';

/** What most shared objects have: an owner, groups they are shared with, a global flag (the rules: access-policy.ts). */
export interface Shareable {
  uid: number;
  gids: readonly number[];
  global: boolean;
}

export const isOwner = (auth: AuthContext, obj: Pick<Shareable, 'uid'>): boolean => obj.uid === auth.uid;

/** The object is shared with a group the caller belongs to (membership read on this request). */
export const sharesGroupWith = (auth: AuthContext, obj: Pick<Shareable, 'gids'>): boolean => obj.gids.some((g) => auth.gids.includes(g));

/** Of `gids`, those the caller may not share with: none for admins, else those they are not a member of. */
export const unshareableGroups = (auth: AuthContext, gids: readonly number[]): number[] => (auth.isAdmin ? [] : gids.filter((g) => !auth.gids.includes(g)));

/** Non-admins share only with groups they belong to (admins with any group): else 403 naming the others. */
export function requireMayShareWith(auth: AuthContext, gids: readonly number[]): void {
  const outside = unshareableGroups(auth, gids);
  if (outside.length) throw refusal('NOT_A_MEMBER_OF_GROUPS', outside.join(', '));
}

/**
 * A change that shares an object further or moves it to another GUID: groups added, Global turned
 * on, or a new GUID (what `GroupSharing.requireMayShareGuid` checks on update).
 */
export function widensSharing(
  before: { guid?: string; gids: readonly number[] | null; global: boolean },
  patch: { guid?: string; gids?: readonly number[] | null; global?: boolean },
): boolean {
  const added = (patch.gids ?? []).some((g) => !(before.gids ?? []).includes(g));
  return added || (patch.global === true && !before.global) || (patch.guid !== undefined && patch.guid !== before.guid);
}
