import { AuthContext } from '../identity/auth.types';
import { canReadShared, isOwner } from '../sharing/shareable';
import { forbidden, notFound } from '../common/errors/app-error';
import { ResourceEntity } from './resource.entity';

/**
 * The one place that decides who may do what with a resource (contract: Resources rules 1-2).
 * - read (metadata, contents, content type, clone): owner, member of a group in GroupACL,
 *   anyone when Global, and admins (with or without `?admin=true`: the flag is harmless);
 * - write (metadata, contents) and delete: owner and admins;
 * - Global: only admins set it.
 * A resource the caller may not read is "not found"; one they may read but not change is 403.
 */
export type ResourceAction = 'read' | 'write' | 'delete';

const shareable = (r: ResourceEntity) => ({ uid: r.uid, gids: r.gids, global: r.global });

export function canReadResource(auth: AuthContext, r: ResourceEntity): boolean {
  return canReadShared(auth, shareable(r));
}

export function canWriteResource(auth: AuthContext, r: ResourceEntity): boolean {
  return auth.isAdmin || isOwner(auth, r);
}

/** Throws 404 (cannot see it) or 403 (can see it, cannot do `action`). */
export function requireResourceAccess(auth: AuthContext, r: ResourceEntity | null, action: ResourceAction): ResourceEntity {
  if (!r || !canReadResource(auth, r)) throw notFound('Resource');
  if (action !== 'read' && !canWriteResource(auth, r)) throw forbidden(`Only the owner or an admin may ${action === 'delete' ? 'delete' : 'change'} this resource`);
  return r;
}

export const canSetGlobal = (auth: AuthContext): boolean => auth.isAdmin;

/** `GET /api/resources?admin=true`: every resource, for admins only (the flag is ignored for others). */
export const listsEverything = (auth: AuthContext, adminFlag: boolean | undefined): boolean => auth.isAdmin && adminFlag === true;
