import { refusal } from '../common/errors/app-error';
import { SharingPolicy } from '../sharing/access-policy';
import { ScheduledSearchEntity } from './scheduled-search.entity';

/**
 * Scheduled searches under the shared-object policy: read (with their runs and results) by the
 * owner, members of a group it is shared with, everyone when Global, and admins; change, run now
 * and delete by the owner and admins; only admins set Global or another owner. One the caller may
 * not read is 404 (not revealed). `?admin=true` (an admin session) lists every user's.
 */
export const scheduledSearchPolicy = new SharingPolicy<ScheduledSearchEntity>({
  adminActs: 'always',
  unreadable: 'hidden',
  ownerChange: 'admin',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'empty',
  refusals: {
    notFound: () => refusal('SCHEDULED_SEARCH_NOT_FOUND'),
    notYours: (verb) => refusal('SCHEDULED_SEARCH_NOT_YOURS', verb),
  },
});
