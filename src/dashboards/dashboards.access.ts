import { AuthContext } from '../identity/auth.types';
import { forbidden, notFound } from '../common/errors/app-error';
import { canReadShared, isOwner, sharesGroupWith } from '../sharing/shareable';
import { DashboardEntity } from './dashboard.entity';

/**
 * The one place that decides what a caller may do with a dashboard.
 * Read: owner, member of a group it is shared with, anyone when global, admins.
 * Write (update, delete): owner or admin; group members and global readers read only.
 * Not readable -> 404 (the object is not revealed); readable but not writable -> 403.
 */
const shareable = (d: DashboardEntity) => ({ uid: d.uid, gids: d.gids ?? [], global: d.global });

export const canReadDashboard = (auth: AuthContext, d: DashboardEntity): boolean => canReadShared(auth, shareable(d));

export const canWriteDashboard = (auth: AuthContext, d: DashboardEntity): boolean => auth.isAdmin || isOwner(auth, d);

/** Preference among dashboards sharing a GUID: own, then via a group, then global, then (admins) anyone's. */
export function readRank(auth: AuthContext, d: DashboardEntity): number {
  if (isOwner(auth, d)) return 0;
  if (sharesGroupWith(auth, shareable(d))) return 1;
  if (d.global) return 2;
  return auth.isAdmin ? 3 : Number.POSITIVE_INFINITY;
}

export function requireReadDashboard(auth: AuthContext, d: DashboardEntity | null | undefined): DashboardEntity {
  if (!d || !canReadDashboard(auth, d)) throw notFound('Dashboard');
  return d;
}

export function requireWriteDashboard(auth: AuthContext, d: DashboardEntity | null | undefined): DashboardEntity {
  const readable = requireReadDashboard(auth, d);
  if (!canWriteDashboard(auth, readable)) throw forbidden('Only the owner or an admin may change or delete this dashboard');
  return readable;
}

/** Rules 1 and 3: only admins hand a dashboard to another UID or make it global. */
export function requireMaySetOwner(auth: AuthContext, uid: number): void {
  if (uid !== auth.uid && !auth.isAdmin) throw forbidden('Only admins may set another owner (UID)');
}

export function requireMaySetGlobal(auth: AuthContext): void {
  if (!auth.isAdmin) throw forbidden('Only admins may set Global');
}

/** `GET /api/groups/{gid}/dashboards`: members of the group and admins. */
export function requireMayListGroup(auth: AuthContext, gid: number): void {
  if (!auth.isAdmin && !auth.gids.includes(gid)) throw forbidden('Only members of the group and admins may list its dashboards');
}

/** `?admin=true` (and `/all`) lists everything for admins; the flag is ignored for everyone else. */
export const adminMode = (auth: AuthContext, flag: boolean | undefined): boolean => auth.isAdmin && flag === true;
