import { refusal } from '../common/errors/app-error';
import { SharingPolicy } from '../sharing/access-policy';
import { LibraryEntryEntity } from './library-entry.entity';

/**
 * The search library (contract: Search library rules 1-6) under the shared-object policy.
 * - Admin rights need admin mode (`?admin=true` from an admin; a non-admin's flag is ignored,
 *   rule 5); without it an admin is an ordinary user here (rule 1: lists own entries; rule 4).
 * - An entry that exists but cannot be accessed answers 403 (rule 3, Errors), delete included;
 *   an unknown one 404.
 */
export const libraryPolicy = new SharingPolicy<LibraryEntryEntity>({
  adminActs: 'inAdminMode',
  unreadable: 'refused',
  deleteWithoutRead: true,
  ownerChange: 'admin',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'empty',
  refusals: {
    notFound: () => refusal('LIBRARY_ENTRY_NOT_FOUND'),
    notYours: (verb) => refusal('LIBRARY_ENTRY_NOT_YOURS', verb),
    unreadable: () => refusal('LIBRARY_ENTRY_FORBIDDEN'),
  },
});
