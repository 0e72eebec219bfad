import { AuthContext } from '../identity/auth.types';
import { forbidden } from '../common/errors/app-error';
import { SharingPolicy } from '../sharing/access-policy';
import { DashboardEntity } from './dashboard.entity';

/**
 * Dashboards (contract: Dashboards, rules 1-6) under the shared-object policy: admins act on
 * every dashboard (`?admin=true` only lists them all); a dashboard the caller may not read is
 * 404; NULL groups stay NULL.
 */
export const dashboardPolicy = new SharingPolicy<DashboardEntity>({
  noun: 'Dashboard',
  adminActs: 'always',
  unreadable: 'hidden',
  ownerChange: 'admin',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'kept',
  messages: { notYours: () => 'Only the owner or an admin may change or delete this dashboard' },
});

/** `GET /api/groups/{gid}/dashboards`: members of the group and admins. */
export function requireMayListGroup(auth: AuthContext, gid: number): void {
  if (!auth.isAdmin && !auth.gids.includes(gid)) throw forbidden('Only members of the group and admins may list its dashboards');
}
