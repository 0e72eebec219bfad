import { SharingPolicy } from '../sharing/access-policy';
import { UserFileEntity } from './user-file.entity';

/**
 * User files (contract: User files) under the shared-object policy. Admin mode (`?admin=true`,
 * admins only; ignored for everyone else, tokens included) acts on any file, addressed by
 * ThingUUID (see `FilesService.resolve`). Outside admin mode everyone, admins included, is a
 * regular user: files are addressed by GUID among those they own, reach through a group, or that
 * are global (winner in that order); they may read those and change or delete only their own;
 * only an admin in admin mode hands a file to another owner. Invisible files are "not found".
 */
export const filePolicy = new SharingPolicy<UserFileEntity>({
  noun: 'File',
  adminActs: 'inAdminMode',
  unreadable: 'hidden',
  ownerChange: 'adminMode',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'empty',
  messages: {
    notYours: (verb) => `Only the owner (or an admin with admin=true) may ${verb} this file`,
    otherOwner: { create: 'Only admins can create files for another user', update: "Only an admin using admin=true can change a file's UID" },
    global: { create: 'Only admins can create global files', update: 'Only admins can set Global' },
    unknownUser: (uid) => `Unknown user ${uid}`,
  },
});
