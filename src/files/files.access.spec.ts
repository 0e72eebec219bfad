import { sharingCaller as fileCaller } from '../sharing/access-policy';
import { filePolicy as policy } from './files.access';
import { UserFileEntity } from './user-file.entity';
import { caller } from '../sharing/access.spec-helper';

const auth = caller;
const file = (over: Partial<UserFileEntity> = {}) => Object.assign(new UserFileEntity(), { thingUuid: 't', guid: 'g', uid: 10, gids: [5], global: false, ...over });

describe('files access', () => {
  it('ranks visible files owner > group > global', () => {
    expect(policy.rank(auth(10, [5]), file({ global: true }))).toBe(0);
    expect(policy.rank(auth(11, [5]), file({ global: true }))).toBe(1);
    expect(policy.rank(auth(12), file({ global: true }))).toBe(2);
    expect(policy.rank(auth(12), file())).toBe(Infinity);
    expect(policy.rank(auth(1, [], true), file())).toBe(Infinity);
  });

  it('admin mode only for admins with the flag; without it admins are regular users', () => {
    const adm = auth(1, [], true);
    expect(fileCaller(adm, true).adminMode).toBe(true);
    expect(fileCaller(adm, undefined).adminMode).toBe(false);
    expect(fileCaller(auth(10), true).adminMode).toBe(false);
    expect(policy.canRead(fileCaller(adm, false), file())).toBe(false);
    expect(policy.canRead(fileCaller(adm, true), file())).toBe(true);
    expect(policy.canChange(fileCaller(adm, false), file({ global: true }))).toBe(false);
    expect(policy.canChange(fileCaller(adm, true), file())).toBe(true);
  });

  it('group members read but do not write; invisible is 404, read-only is 403', () => {
    const member = fileCaller(auth(11, [5]), false);
    expect([policy.canRead(member, file()), policy.canChange(member, file())]).toEqual([true, false]);
    expect(() => policy.require(member, file(), 'change')).toThrow(
      expect.objectContaining({ status: 403, message: 'Only the owner (or an admin with admin=true) may change this file' }),
    );
    expect(() => policy.require(fileCaller(auth(12), false), file(), 'read')).toThrow(expect.objectContaining({ status: 404 }));
    expect(policy.require(fileCaller(auth(10), false), file(), 'delete').thingUuid).toBe('t');
  });

  it('UID and Global rules', () => {
    const status = (fn: () => void) => {
      try {
        fn();
        return 200;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(status(() => policy.requireMaySetOwner(auth(10), 10, 'create'))).toBe(200);
    expect(() => policy.requireMaySetOwner(auth(10), 11, 'create')).toThrow('Only admins can create files for another user');
    expect(status(() => policy.requireMaySetOwner(auth(1, [], true), 11, 'create'))).toBe(200);
    expect(() => policy.requireMaySetOwner(fileCaller(auth(1, [], true), false), 11, 'update')).toThrow("Only an admin using admin=true can change a file's UID");
    expect(status(() => policy.requireMaySetOwner(fileCaller(auth(1, [], true), true), 11, 'update'))).toBe(200);
    expect(() => policy.requireMaySetGlobal(auth(10), 'create')).toThrow('Only admins can create global files');
    expect(() => policy.requireMaySetGlobal(auth(10), 'update')).toThrow('Only admins can set Global');
    expect(status(() => policy.requireMaySetGlobal(auth(1, [], true), 'update'))).toBe(200);
  });
});
