import { refusal } from '../common/errors/app-error';
import { SharingPolicy } from '../sharing/access-policy';
import { ResourceEntity } from './resource.entity';

/**
 * Resources (contract: Resources rules 1-2) under the shared-object policy: admins act on every
 * resource (`?admin=true` only lists them all); the owner is always the creator; a non-admin's
 * Global is ignored on update (refused on create); invisible resources are "not found".
 */
export const resourcePolicy = new SharingPolicy<ResourceEntity>({
  adminActs: 'always',
  unreadable: 'hidden',
  ownerChange: 'never',
  othersGlobal: 'ignored',
  groupsField: 'GroupACL',
  nullGroups: 'empty',
  refusals: {
    notFound: () => refusal('RESOURCE_NOT_FOUND'),
    notYours: (verb) => refusal('RESOURCE_NOT_YOURS', verb),
    global: { create: () => refusal('GLOBAL_RESOURCE_ADMIN_ONLY'), update: () => refusal('GLOBAL_ADMIN_ONLY') },
  },
});
