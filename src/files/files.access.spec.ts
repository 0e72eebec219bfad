import { AuthContext } from '../identity/auth.types';
import { canChangeOwner, canCreateFor, canReadFile, canSetGlobal, canWriteFile, fileCaller, listsEverything, requireFileAccess, visibilityRank } from './files.access';
import { UserFileEntity } from './user-file.entity';

const auth = (uid: number, gids: number[] = [], isAdmin = false): AuthContext => ({ uid, username: `u${uid}`, accountAdmin: isAdmin, isAdmin, gids });
const file = (over: Partial<UserFileEntity> = {}) => Object.assign(new UserFileEntity(), { thingUuid: 't', guid: 'g', uid: 10, gids: [5], global: false, ...over });

describe('files access', () => {
  it('ranks visible files owner > group > global', () => {
    expect(visibilityRank(auth(10, [5]), file({ global: true }))).toBe(0);
    expect(visibilityRank(auth(11, [5]), file({ global: true }))).toBe(1);
    expect(visibilityRank(auth(12), file({ global: true }))).toBe(2);
    expect(visibilityRank(auth(12), file())).toBeNull();
  });

  it('admin mode only for admins with the flag; without it admins are regular users', () => {
    const adm = auth(1, [], true);
    expect(fileCaller(adm, true).adminMode).toBe(true);
    expect(fileCaller(adm, undefined).adminMode).toBe(false);
    expect(fileCaller(auth(10), true).adminMode).toBe(false);
    expect(canReadFile(fileCaller(adm, false), file())).toBe(false);
    expect(canReadFile(fileCaller(adm, true), file())).toBe(true);
    expect(canWriteFile(fileCaller(adm, false), file({ global: true }))).toBe(false);
    expect(canWriteFile(fileCaller(adm, true), file())).toBe(true);
    expect(listsEverything(fileCaller(adm, true))).toBe(true);
    expect(listsEverything(fileCaller(auth(10), true))).toBe(false);
  });

  it('group members read but do not write; invisible is 404, read-only is 403', () => {
    const member = fileCaller(auth(11, [5]), false);
    expect([canReadFile(member, file()), canWriteFile(member, file())]).toEqual([true, false]);
    expect(() => requireFileAccess(member, file(), 'write')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => requireFileAccess(fileCaller(auth(12), false), file(), 'read')).toThrow(expect.objectContaining({ status: 404 }));
    expect(requireFileAccess(fileCaller(auth(10), false), file(), 'delete').thingUuid).toBe('t');
  });

  it('UID and Global rules', () => {
    expect(canCreateFor(auth(10), 10)).toBe(true);
    expect(canCreateFor(auth(10), 11)).toBe(false);
    expect(canCreateFor(auth(1, [], true), 11)).toBe(true);
    expect(canChangeOwner(fileCaller(auth(1, [], true), false))).toBe(false);
    expect(canChangeOwner(fileCaller(auth(1, [], true), true))).toBe(true);
    expect(canSetGlobal(auth(10))).toBe(false);
    expect(canSetGlobal(auth(1, [], true))).toBe(true);
  });
});
