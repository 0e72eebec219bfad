import { refusal } from '../common/errors/app-error';
import { SharingPolicy } from '../sharing/access-policy';
import { PivotEntity } from './pivot.entity';

/**
 * Actionables under the shared-object policy, as macros: read by the owner, members of a group it
 * is shared with, everyone when Global, and admins; change and delete by the owner and admins;
 * only admins set Global or another owner. One the caller may not read is 404 (not revealed).
 * `?admin=true` (an admin session) lists every user's and reaches one by its ThingUUID.
 */
export const pivotPolicy = new SharingPolicy<PivotEntity>({
  adminActs: 'always',
  unreadable: 'hidden',
  ownerChange: 'admin',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'empty',
  refusals: {
    notFound: () => refusal('PIVOT_NOT_FOUND'),
    notYours: (verb) => refusal('PIVOT_NOT_YOURS', verb),
  },
});
