import { refusal } from '../common/errors/app-error';
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
  adminActs: 'inAdminMode',
  unreadable: 'hidden',
  ownerChange: 'adminMode',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'empty',
  refusals: {
    notFound: () => refusal('FILE_NOT_FOUND'),
    notYours: (verb) => refusal('FILE_NOT_YOURS', verb),
    otherOwner: { create: () => refusal('FILE_FOR_OTHER_USER_ADMIN_ONLY'), update: () => refusal('FILE_OWNER_CHANGE_ADMIN_MODE_ONLY') },
    global: { create: () => refusal('GLOBAL_FILE_ADMIN_ONLY'), update: () => refusal('FILE_GLOBAL_ADMIN_ONLY') },
    unknownUser: (uid) => refusal('FILE_OWNER_UNKNOWN', uid),
  },
});
