import { AuthContext } from '../identity/auth.types';
import { AppError, refusal as refused } from '../common/errors/app-error';
import { Caller, RANK, SharedObject, SharingPolicy, SharingRules, sharingCaller } from './access-policy';
import { GroupDirectory, GroupSharing } from './group-sharing';
import { caller, statusOf } from './access.spec-helper';

const auth = caller;
type Obj = SharedObject & { guid: string };
const obj = (gids: number[] | null, global = false): Obj => ({ guid: 'g', uid: 10, gids, global });

/** The code and message of the refusal `fn` throws. */
const thrown = (fn: () => unknown): [string, string] | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return [(e as AppError).code, (e as AppError).message];
  }
};

const status = statusOf;

/** The refusals of a kind are its catalogue codes (the resources' here); the rest are the shared ones. */
const base: SharingRules = {
  adminActs: 'always',
  unreadable: 'hidden',
  ownerChange: 'admin',
  othersGlobal: 'refused',
  groupsField: 'GIDs',
  nullGroups: 'empty',
  refusals: { notFound: () => refused('RESOURCE_NOT_FOUND'), notYours: (verb) => refused('RESOURCE_NOT_YOURS', verb) },
};
/** Dashboards, resources, searches: admins act without the flag; unreadable is 404. */
const plain = new SharingPolicy<Obj>(base);
/** Library: admin rights only in admin mode; unreadable is 403; delete does not check read first. */
const flagged = new SharingPolicy<Obj>({
  ...base,
  adminActs: 'inAdminMode',
  unreadable: 'refused',
  deleteWithoutRead: true,
  refusals: { ...base.refusals, unreadable: () => refused('LIBRARY_ENTRY_FORBIDDEN') },
});

const owner = auth(10, [5]);
const member = auth(11, [5]);
const stranger = auth(12, [6]);
const admin = auth(1, [], true);
const adminToken: AuthContext = { ...admin, isAdmin: false, token: { id: 't', capabilities: new Set(), expiresAt: null } };
const objects = [obj([]), obj(null), obj([5]), obj([], true)]; // private, private (NULL groups), shared with 5, global

describe('the shared-object access policy', () => {
  // Status of read, change, delete over [private, private NULL, shared, global].
  it.each([
    ['owner', plain, owner, [200, 200, 200, 200], [200, 200, 200, 200], [200, 200, 200, 200]],
    ['group member', plain, member, [404, 404, 200, 200], [404, 404, 403, 403], [404, 404, 403, 403]],
    ['stranger', plain, stranger, [404, 404, 404, 200], [404, 404, 404, 403], [404, 404, 404, 403]],
    ['admin', plain, admin, [200, 200, 200, 200], [200, 200, 200, 200], [200, 200, 200, 200]],
    ['token of an admin', plain, adminToken, [404, 404, 404, 200], [404, 404, 404, 403], [404, 404, 404, 403]],
    ['owner (admin mode kinds)', flagged, sharingCaller(owner, true), [200, 200, 200, 200], [200, 200, 200, 200], [200, 200, 200, 200]],
    ['group member (admin mode kinds, flag ignored)', flagged, sharingCaller(member, true), [403, 403, 200, 200], [403, 403, 403, 403], [403, 403, 403, 403]],
    ['stranger (admin mode kinds)', flagged, sharingCaller(stranger), [403, 403, 403, 200], [403, 403, 403, 403], [403, 403, 403, 403]],
    ['admin without the flag (admin mode kinds)', flagged, sharingCaller(admin), [403, 403, 403, 200], [403, 403, 403, 403], [403, 403, 403, 403]],
    ['admin in admin mode', flagged, sharingCaller(admin, true), [200, 200, 200, 200], [200, 200, 200, 200], [200, 200, 200, 200]],
    ['token of an admin with the flag', flagged, sharingCaller(adminToken, true), [403, 403, 403, 200], [403, 403, 403, 403], [403, 403, 403, 403]],
  ] as Array<[string, SharingPolicy<Obj>, Caller, number[], number[], number[]]>)('%s', (_, policy, who, read, change, del) => {
    expect(objects.map((o) => status(() => policy.require(who, o, 'read')))).toEqual(read);
    expect(objects.map((o) => status(() => policy.require(who, o, 'change')))).toEqual(change);
    expect(objects.map((o) => status(() => policy.require(who, o, 'delete')))).toEqual(del);
    expect(objects.map((o) => policy.permissions(who, o).Modify)).toEqual(change.map((s) => s === 200));
  });

  it('unknown objects are 404 for everyone and every action', () => {
    for (const p of [plain, flagged]) for (const a of ['read', 'change', 'delete'] as const) expect(status(() => p.require(sharingCaller(admin, true), null, a))).toBe(404);
    expect(thrown(() => plain.require(owner, undefined, 'read'))).toEqual(['RESOURCE_NOT_FOUND', 'Resource not found']);
  });

  it("refusals are the kind's catalogue codes, or the shared ones it leaves out", () => {
    expect(thrown(() => plain.require(stranger, obj([]), 'read'))).toEqual(['RESOURCE_NOT_FOUND', 'Resource not found']);
    expect(thrown(() => plain.require(member, obj([5]), 'change'))).toEqual(['RESOURCE_NOT_YOURS', 'Only the owner or an admin may change this resource']);
    expect(thrown(() => plain.require(member, obj([5]), 'delete'))).toEqual(['RESOURCE_NOT_YOURS', 'Only the owner or an admin may delete this resource']);
    expect(thrown(() => flagged.require(stranger, obj([]), 'read'))).toEqual(['LIBRARY_ENTRY_FORBIDDEN', 'You cannot access this library entry']);
    expect(thrown(() => plain.requireMaySetGlobal(owner, 'create'))).toEqual(['GLOBAL_ADMIN_ONLY', 'Only admins may set Global']);
    expect(thrown(() => plain.requireMaySetOwner(owner, 11, 'create'))).toEqual(['OTHER_OWNER_ADMIN_ONLY', 'Only admins may set another owner (UID)']);
    const custom = new SharingPolicy<Obj>({
      ...base,
      refusals: { ...base.refusals, global: { create: () => refused('GLOBAL_FILE_ADMIN_ONLY'), update: () => refused('FILE_GLOBAL_ADMIN_ONLY') } },
    });
    expect(thrown(() => custom.requireMaySetGlobal(owner, 'update'))).toEqual(['FILE_GLOBAL_ADMIN_ONLY', 'Only admins can set Global']);
    expect(() => new SharingPolicy<Obj>({ ...base, unreadable: 'refused' })).toThrow('needs refusals.unreadable');
  });

  it('ranks own < group < global < admin rights; unreadable is Infinity', () => {
    expect([owner, member, stranger, admin].map((a) => plain.rank(a, obj([5])))).toEqual([RANK.own, RANK.group, RANK.none, RANK.admin]);
    expect(plain.rank(stranger, obj([], true))).toBe(RANK.global);
    expect(flagged.rank(sharingCaller(admin), obj([5]))).toBe(RANK.none);
    expect(flagged.rank(sharingCaller(admin, true), obj([5]))).toBe(RANK.admin);
  });

  it('admin mode: only an admin session with the flag; it alone lists everything', () => {
    expect([sharingCaller(admin, true), sharingCaller(admin), sharingCaller(owner, true), sharingCaller(adminToken, true)].map((c) => c.adminMode)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect([sharingCaller(admin, true), sharingCaller(admin), sharingCaller(member), sharingCaller(stranger)].map((c) => plain.listed(c, obj([5])))).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(plain.listed(sharingCaller(stranger), obj([], true))).toBe(true);
  });

  it('only admins set Global or another owner; on update some kinds need admin mode or allow no change', () => {
    expect(status(() => plain.requireMaySetGlobal(owner, 'create'))).toBe(403);
    expect(status(() => plain.requireMaySetGlobal(adminToken, 'update'))).toBe(403);
    expect(status(() => plain.requireMaySetGlobal(admin, 'update'))).toBe(200);
    expect(status(() => plain.requireMaySetOwner(owner, 10, 'create'))).toBe(200);
    expect(status(() => plain.requireMaySetOwner(owner, 11, 'create'))).toBe(403);
    expect(status(() => plain.requireMaySetOwner(admin, 11, 'create'))).toBe(200);
    expect(status(() => plain.requireMaySetOwner(admin, 11, 'update'))).toBe(200);
    const files = new SharingPolicy<Obj>({ ...base, ownerChange: 'adminMode' });
    expect(status(() => files.requireMaySetOwner(sharingCaller(admin), 11, 'update'))).toBe(403);
    expect(status(() => files.requireMaySetOwner(sharingCaller(admin, true), 11, 'update'))).toBe(200);
    expect(status(() => files.requireMaySetOwner(sharingCaller(admin), 11, 'create'))).toBe(200);
    const never = new SharingPolicy<Obj>({ ...base, ownerChange: 'never' });
    expect(status(() => never.requireMaySetOwner(admin, 11, 'update'))).toBe(403);
  });
});

describe('the sharing of a create or update (GroupSharing)', () => {
  const groups: GroupDirectory = { existing: async (gids) => gids.filter((g) => g < 100) };
  const sharing = new GroupSharing(groups);
  const look = { userExists: async (uid: number) => uid < 100, firstHolder: async () => 99 };
  const kept = new SharingPolicy<Obj>({ ...base, nullGroups: 'kept' });
  const ignoring = new SharingPolicy<Obj>({ ...base, othersGlobal: 'ignored', groupsField: 'GroupACL' });
  const refusal = async (p: Promise<unknown>): Promise<string> =>
    p.then(
      () => 'ok',
      (e: AppError) => `${e.status} ${e.code} ${e.message}`,
    );

  it('create: the caller owns it, no groups, not global; groups are deduplicated; NULL kept only where the kind keeps it', async () => {
    expect(await sharing.create(plain, owner, {})).toEqual({ uid: 10, gids: [], global: false });
    expect(await sharing.create(kept, owner, { gids: null })).toEqual({ uid: 10, gids: null, global: false });
    expect(await sharing.create(plain, owner, { gids: [5, 5] })).toEqual({ uid: 10, gids: [5], global: false });
    expect(await sharing.create(plain, admin, { uid: 11, global: true, gids: [7] }, look)).toEqual({ uid: 11, gids: [7], global: true });
  });

  it('create refuses another owner, Global, foreign or unknown groups, unknown users and shared reuse of a GUID', async () => {
    expect(await refusal(sharing.create(plain, owner, { uid: 11 }, look))).toBe('403 OTHER_OWNER_ADMIN_ONLY Only admins may set another owner (UID)');
    expect(await refusal(sharing.create(plain, admin, { uid: 500 }, look))).toBe('400 OWNER_DOES_NOT_EXIST User 500 does not exist');
    expect(await refusal(sharing.create(plain, owner, { global: true }))).toBe('403 GLOBAL_ADMIN_ONLY Only admins may set Global');
    expect(await refusal(sharing.create(plain, owner, { gids: [6] }))).toBe('403 NOT_A_MEMBER_OF_GROUPS You may share only with groups you belong to (not 6)');
    expect(await refusal(sharing.create(ignoring, admin, { gids: [100] }))).toBe('400 UNKNOWN_GROUPS Unknown group 100 in GroupACL');
    expect(await refusal(sharing.create(plain, owner, { gids: [5], guid: 'g' }, look))).toMatch(/^403 GUID_OF_ANOTHER_OWNER This GUID belongs to another user's object/);
    expect(await refusal(sharing.create(plain, owner, { guid: 'g' }, look))).toBe('ok'); // a private copy
  });

  it('update: absent and null keep; only changes are checked; a non-admin Global is refused or ignored as the kind says', async () => {
    const cur = obj([5]);
    expect(await sharing.update(plain, owner, cur, { uid: null, global: null })).toEqual({});
    expect(await sharing.update(plain, owner, cur, { uid: 10, global: false })).toEqual({});
    expect(await sharing.update(plain, owner, cur, { gids: null })).toEqual({ gids: [] });
    expect(await sharing.update(kept, owner, cur, { gids: null })).toEqual({ gids: null });
    expect(await refusal(sharing.update(plain, owner, cur, { global: true }))).toBe('403 GLOBAL_ADMIN_ONLY Only admins may set Global');
    expect(await sharing.update(ignoring, owner, cur, { global: true })).toEqual({});
    expect(await sharing.update(ignoring, admin, cur, { global: false })).toEqual({ global: false });
    expect(await refusal(sharing.update(plain, owner, cur, { uid: 11 }, look))).toBe('403 OTHER_OWNER_ADMIN_ONLY Only admins may set another owner (UID)');
    expect(await sharing.update(plain, admin, cur, { uid: 11 }, look)).toEqual({ uid: 11 });
  });

  it('update keeps groups an admin added, checks the new ones, and checks GUID reuse only when sharing widens', async () => {
    const cur = obj([5, 6]);
    expect(await sharing.update(plain, owner, cur, { gids: [5, 6] }, look)).toEqual({ gids: [5, 6] });
    expect(await refusal(sharing.update(plain, owner, cur, { gids: [5, 6, 7] }, look))).toBe('403 NOT_A_MEMBER_OF_GROUPS You may share only with groups you belong to (not 7)');
    expect(await refusal(sharing.update(plain, admin, cur, { global: true }, look))).toBe('ok'); // admins may
    expect(await refusal(sharing.update(plain, owner, obj([]), { gids: [5] }, look))).toMatch(/^403 GUID_OF_ANOTHER_OWNER This GUID/);
    expect(await sharing.update(plain, owner, obj([5]), { guid: 'h' })).toEqual({ guid: 'h' }); // no GUID reuse check without a lookup
  });
});
