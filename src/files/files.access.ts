import { AuthContext } from '../identity/auth.types';
import { isOwner, sharesGroupWith } from '../sharing/shareable';
import { forbidden, notFound } from '../common/errors/app-error';
import { UserFileEntity } from './user-file.entity';

/**
 * The one place that decides who may do what with a user file (contract: User files).
 * Admin mode (`?admin=true`, admins only; ignored for everyone else, tokens included) acts on any
 * file, addressed by ThingUUID. Outside admin mode everyone, admins included, is a regular user:
 * files are addressed by GUID among those they own, reach through a group, or that are global
 * (winner in that order); they may read those and change or delete only their own.
 * Invisible files are "not found"; visible ones the caller may not change are 403.
 */
export interface FileCaller {
  auth: AuthContext;
  /** `?admin=true` from an admin. */
  adminMode: boolean;
}

export const fileCaller = (auth: AuthContext, adminFlag: boolean | undefined): FileCaller => ({ auth, adminMode: auth.isAdmin && adminFlag === true });

/** Winner rank of a visible file for GUID resolution: 0 owned, 1 through a group, 2 global; null when not visible. */
export function visibilityRank(auth: AuthContext, f: Pick<UserFileEntity, 'uid' | 'gids' | 'global'>): 0 | 1 | 2 | null {
  if (isOwner(auth, f)) return 0;
  if (sharesGroupWith(auth, f)) return 1;
  if (f.global) return 2;
  return null;
}

export const canReadFile = (c: FileCaller, f: UserFileEntity): boolean => c.adminMode || visibilityRank(c.auth, f) !== null;
export const canWriteFile = (c: FileCaller, f: UserFileEntity): boolean => c.adminMode || isOwner(c.auth, f);

export type FileAction = 'read' | 'write' | 'delete';

export function requireFileAccess(c: FileCaller, f: UserFileEntity | null, action: FileAction): UserFileEntity {
  if (!f || !canReadFile(c, f)) throw notFound('File');
  if (action !== 'read' && !canWriteFile(c, f)) throw forbidden(`Only the owner (or an admin with admin=true) may ${action === 'delete' ? 'delete' : 'change'} this file`);
  return f;
}

/** Only admins set Global. */
export const canSetGlobal = (auth: AuthContext): boolean => auth.isAdmin;
/** Creating a file for another user: admins only. */
export const canCreateFor = (auth: AuthContext, uid: number): boolean => uid === auth.uid || auth.isAdmin;
/** Changing a file's owner: only an admin using admin=true. */
export const canChangeOwner = (c: FileCaller): boolean => c.adminMode;
export const listsEverything = (c: FileCaller): boolean => c.adminMode;
