import { SharingPolicy } from '../sharing/access-policy';
import { ResourceEntity } from './resource.entity';

/**
 * Resources (contract: Resources rules 1-2) under the shared-object policy: admins act on every
 * resource (`?admin=true` only lists them all); the owner is always the creator; a non-admin's
 * Global is ignored on update (refused on create); invisible resources are "not found".
 */
export const resourcePolicy = new SharingPolicy<ResourceEntity>({
  noun: 'Resource',
  adminActs: 'always',
  unreadable: 'hidden',
  ownerChange: 'never',
  othersGlobal: 'ignored',
  groupsField: 'GroupACL',
  nullGroups: 'empty',
  messages: { global: { create: 'Only admins can create global resources', update: 'Only admins may set Global' } },
});
