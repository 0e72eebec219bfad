import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { SharingPolicy } from '../sharing/access-policy';
import { DashboardEntity } from './dashboard.entity';

/**
 * Dashboards (contract: Dashboards, rules 1-6) under the shared-object policy: admins act on
 * every dashboard (`?admin=true` only lists them all); a dashboard the caller may not read is
 * 404; NULL groups stay NULL.
 */
export const dashboardPolicy = new SharingPolicy<DashboardEntity>({
  adminActs: 'always',
  unreadable: 'hidden',
  ownerChange: 'admin',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'kept',
  refusals: { notFound: () => refusal('DASHBOARD_NOT_FOUND'), notYours: () => refusal('DASHBOARD_NOT_YOURS') },
});

/** `GET /api/groups/{gid}/dashboards`: members of the group and admins. */
export function requireMayListGroup(auth: AuthContext, gid: number): void {
  if (!auth.isAdmin && !auth.gids.includes(gid)) throw refusal('GROUP_DASHBOARDS_FORBIDDEN');
}
