import { AuthContext } from '../identity/auth.types';
import { canReadShared, isOwner, sharesGroupWith } from '../sharing/shareable';
import { forbidden, notFound } from '../common/errors/app-error';
import { LibraryEntryEntity } from './library-entry.entity';

/**
 * The one place that decides what a caller may do with a library entry (contract: Search
 * library rules 1-6).
 * - Admin mode is `?admin=true` from an admin; a non-admin's flag is ignored (rule 5).
 * - Read: owner, member of a group it is shared with, anyone when global; in admin mode anything.
 *   Without the flag an admin is an ordinary user here (rule 1: lists own entries; rule 4).
 * - Modify and delete: the owner, or an admin in admin mode; group members read only (rule 4).
 * - An entry that exists but cannot be accessed answers 403 (rule 3, Errors); unknown: 404.
 */
export interface LibraryCaller {
  auth: AuthContext;
  adminMode: boolean;
}

export const libraryCaller = (auth: AuthContext, adminFlag: boolean | undefined): LibraryCaller => ({ auth, adminMode: auth.isAdmin && adminFlag === true });

const shareable = (e: LibraryEntryEntity) => ({ uid: e.uid, gids: e.gids, global: e.global });

export const canReadEntry = (c: LibraryCaller, e: LibraryEntryEntity): boolean => c.adminMode || canReadShared({ ...c.auth, isAdmin: false }, shareable(e));

export const canModifyEntry = (c: LibraryCaller, e: LibraryEntryEntity): boolean => c.adminMode || isOwner(c.auth, e);

export const canDeleteEntry = canModifyEntry;

/** What the caller may do with the entry, with the same admin mode (product-notes §8 `Can`). */
export function entryPermissions(c: LibraryCaller, e: LibraryEntryEntity): { Delete: boolean; Modify: boolean; Share: boolean } {
  const mine = canModifyEntry(c, e);
  return { Delete: canDeleteEntry(c, e), Modify: mine, Share: mine };
}

/** Preference among entries sharing a GUID: own, then via a group, then global, then (admin mode) anyone's. */
export function entryRank(c: LibraryCaller, e: LibraryEntryEntity): number {
  if (isOwner(c.auth, e)) return 0;
  if (sharesGroupWith(c.auth, shareable(e))) return 1;
  if (e.global) return 2;
  return c.adminMode ? 3 : Number.POSITIVE_INFINITY;
}

export function requireReadEntry(c: LibraryCaller, e: LibraryEntryEntity | null | undefined): LibraryEntryEntity {
  if (!e) throw notFound('Library entry');
  if (!canReadEntry(c, e)) throw forbidden('You cannot access this library entry');
  return e;
}

export function requireModifyEntry(c: LibraryCaller, e: LibraryEntryEntity | null | undefined): LibraryEntryEntity {
  const entry = requireReadEntry(c, e);
  if (!canModifyEntry(c, entry)) throw forbidden('Only the owner (or an admin with ?admin=true) may change this library entry');
  return entry;
}

export function requireDeleteEntry(c: LibraryCaller, e: LibraryEntryEntity | null | undefined): LibraryEntryEntity {
  if (!e) throw notFound('Library entry');
  if (!canDeleteEntry(c, e)) throw forbidden('Only the owner (or an admin with ?admin=true) may delete this library entry');
  return e;
}

/** Rule 6 and the overview: only admins set Global or hand an entry to another owner. */
export function requireMaySetGlobal(auth: AuthContext): void {
  if (!auth.isAdmin) throw forbidden('Only admins may set Global');
}

export function requireMaySetOwner(auth: AuthContext, uid: number): void {
  if (uid !== auth.uid && !auth.isAdmin) throw forbidden('Only admins may set another owner (UID)');
}
