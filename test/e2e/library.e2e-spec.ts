import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, fieldErrors, libraryErrors, requestErrors, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

const { invalidRequest } = requestErrors;
/** A 400 of the validation pipe, as a whole body. */
const invalid = (...problems: string[]) => errorBody(invalidRequest(...problems), 'VALIDATION_FAILED');
const { boolean, each, max, maxItems, maxLength } = fieldErrors;
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const NO_WRITE_ACCESS = { Global: false, GIDs: [] };
const ALL = { Delete: true, Modify: true, Share: true };
const NONE = { Delete: false, Modify: false, Share: false };

describe('search library', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;
  let otherGid: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'owner' });
    member = await createUser(t.http, admin, { prefix: 'member' });
    stranger = await createUser(t.http, admin, { prefix: 'stranger' });
    gid = await createGroup(t.http, admin);
    otherGid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
  });
  afterAll(() => t.close());

  const create = (h: Headers, body: object) => request(t.http).post('/api/library').set(h).send(body);
  const get = (h: Headers, id: string, q = '') => request(t.http).get(`/api/library/${id}${q}`).set(h);
  const put = (h: Headers, id: string, body: object, q = '') => request(t.http).put(`/api/library/${id}${q}`).set(h).send(body);
  const del = (h: Headers, id: string, q = '') => request(t.http).delete(`/api/library/${id}${q}`).set(h);
  const list = (h: Headers, q = '') => request(t.http).get(`/api/library${q}`).set(h);

  async function make(h: Headers, body: object): Promise<{ ThingUUID: string; GUID: string }> {
    const res = await create(h, { Name: 'entry', Query: 'tag=default', ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Private, group-shared and global entries, all owned by `owner`. */
  async function objects() {
    return {
      priv: await make(owner.headers, { Name: 'private' }),
      shared: await make(owner.headers, { Name: 'shared', GIDs: [gid] }),
      global: await make(admin, { Name: 'global', UID: owner.uid, Global: true }),
    };
  }

  describe('create and read', () => {
    it('POST returns the created entry; empty GIDs/Labels/Metadata are omitted; Can and WriteAccess are present', async () => {
      const res = await create(owner.headers, { Name: 'n', Description: 'd', Query: 'tag=x grep foo | table' }).expect(200);
      expect(res.body).toEqual({
        ThingUUID: UUID,
        GUID: UUID,
        UID: owner.uid,
        Global: false,
        Name: 'n',
        Description: 'd',
        Query: 'tag=x grep foo | table',
        Can: ALL,
        WriteAccess: NO_WRITE_ACCESS,
      });
      expect(res.body.ThingUUID).not.toBe(res.body.GUID);
      expect((await get(owner.headers, res.body.ThingUUID).expect(200)).body).toEqual(res.body);
    });

    it('keeps GIDs, Labels and Metadata when set; a supplied GUID is used', async () => {
      const guid = 'ABCDEF01-2345-4678-89AB-CDEF01234567';
      const res = await create(owner.headers, { Name: 'n', Query: 'q', GUID: guid, GIDs: [gid, gid], Labels: ['x', 'y'], Metadata: { a: [1, { b: null }] } }).expect(200);
      expect(res.body).toEqual({
        ThingUUID: UUID,
        GUID: guid.toLowerCase(),
        UID: owner.uid,
        GIDs: [gid],
        Global: false,
        Name: 'n',
        Description: '',
        Query: 'q',
        Labels: ['x', 'y'],
        Metadata: { a: [1, { b: null }] },
        Can: ALL,
        WriteAccess: NO_WRITE_ACCESS,
      });
    });

    it('ignores read-only and unknown fields sent by the client (ThingUUID, Can, WriteAccess, Synced)', async () => {
      const fake = '00000000-0000-4000-8000-000000000000';
      const res = await create(owner.headers, { Name: 'n', Query: 'q', ThingUUID: fake, Can: NONE, WriteAccess: { Global: true, GIDs: [1] }, Synced: true }).expect(200);
      expect(res.body.ThingUUID).not.toBe(fake);
      expect(res.body.Can).toEqual(ALL);
      expect(res.body.WriteAccess).toEqual(NO_WRITE_ACCESS);
    });

    it('Metadata: JSON text is parsed, blank means none, invalid JSON is a 400 and nothing is stored', async () => {
      expect((await create(owner.headers, { Name: 'n', Query: 'q', Metadata: '{"k":1}' }).expect(200)).body.Metadata).toEqual({ k: 1 });
      expect((await create(owner.headers, { Name: 'n', Query: 'q', Metadata: '"123"' }).expect(200)).body.Metadata).toBe('123');
      const s = await make(owner.headers, { Metadata: '"abc"' });
      expect((await get(owner.headers, s.ThingUUID).expect(200)).body.Metadata).toBe('abc');
      expect((await create(owner.headers, { Name: 'n', Query: 'q', Metadata: '' }).expect(200)).body).not.toHaveProperty('Metadata');
      expect((await create(owner.headers, { Name: 'n', Query: 'q', Metadata: null }).expect(200)).body).not.toHaveProperty('Metadata');
      expect((await create(owner.headers, { Name: 'n', Query: 'q', Metadata: {} }).expect(200)).body).not.toHaveProperty('Metadata');
      const before = (await list(owner.headers)).body.length;
      expect((await create(owner.headers, { Name: 'n', Query: 'q', Metadata: '{"k":' }).expect(400)).body).toEqual(
        errorBody(requestErrors.mustBeValidJson('Metadata'), 'INVALID_JSON_FIELD'),
      );
      expect((await list(owner.headers)).body.length).toBe(before);
    });
  });

  describe('rule 1: GET /api/library lists own entries, admin or not; ?admin=true gives admins everything', () => {
    let u: TestUser;
    let mate: TestUser;
    let lg: number;
    let mine: Array<{ ThingUUID: string }>;
    let adminOwn: { ThingUUID: string };
    beforeAll(async () => {
      u = await createUser(t.http, admin);
      mate = await createUser(t.http, admin);
      lg = await createGroup(t.http, admin);
      await addToGroup(t.http, admin, u.uid, lg);
      await addToGroup(t.http, admin, mate.uid, lg);
      mine = [await make(u.headers, { Name: 'a' }), await make(u.headers, { Name: 'b', GIDs: [lg] }), await make(admin, { UID: u.uid, Global: true })];
      adminOwn = await make(admin, { Name: 'admin own' });
    });
    const ids = (b: Array<{ ThingUUID: string }>) => b.map((e) => e.ThingUUID).sort();

    it('a user sees only the own entries (not group-shared or global ones of others)', async () => {
      expect(ids((await list(u.headers).expect(200)).body)).toEqual(ids(mine));
      expect((await list(mate.headers).expect(200)).body).toEqual([]);
    });
    it("a non-admin's ?admin=true is ignored", async () => {
      expect(ids((await list(u.headers, '?admin=true').expect(200)).body)).toEqual(ids(mine));
      expect((await list(mate.headers, '?admin=true').expect(200)).body).toEqual([]);
    });
    it('an admin without the flag sees only the own entries; with it every entry of every user', async () => {
      const own = ids((await list(admin).expect(200)).body);
      expect(own).toContain(adminOwn.ThingUUID);
      for (const e of mine) expect(own).not.toContain(e.ThingUUID);
      const all = (await list(admin, '?admin=true').expect(200)).body;
      expect(ids(all)).toEqual(expect.arrayContaining([...ids(mine), adminOwn.ThingUUID]));
      expect(all.find((e: { ThingUUID: string }) => e.ThingUUID === mine[0].ThingUUID).Can).toEqual(ALL);
    });
    it('?admin=garbage is a 400', async () => {
      expect((await list(admin, '?admin=perhaps').expect(400)).body).toEqual(errorBody(requestErrors.notBoolean('admin'), 'VALIDATION_FAILED'));
    });
  });

  describe('rule 2: ThingUUID and GUID are interchangeable in the URL', () => {
    it('GET, PUT and DELETE by GUID', async () => {
      const e = await make(owner.headers, {});
      expect((await get(owner.headers, e.GUID).expect(200)).body.ThingUUID).toBe(e.ThingUUID);
      expect((await put(owner.headers, e.GUID, { Name: 'by guid' }).expect(200)).body).toEqual(expect.objectContaining({ ThingUUID: e.ThingUUID, Name: 'by guid' }));
      await del(owner.headers, e.GUID).expect(200);
      await get(owner.headers, e.ThingUUID).expect(404);
    });
    it('several entries sharing a GUID: own > group > global; admin mode needs the ThingUUID when ambiguous', async () => {
      const guid = '12345678-1234-4234-8234-123456789abc';
      // The group's copy comes first: only the first holder of a GUID (or an admin) may share it.
      const group = await make(owner.headers, { GUID: guid, GIDs: [gid], Name: 'grp' });
      const global = await make(admin, { GUID: guid, UID: stranger.uid, Global: true, Name: 'g' });
      const own = await make(member.headers, { GUID: guid, Name: 'own' });
      expect((await get(member.headers, guid).expect(200)).body.ThingUUID).toBe(own.ThingUUID);
      expect((await get(owner.headers, guid).expect(200)).body.ThingUUID).toBe(group.ThingUUID);
      const u = await createUser(t.http, admin);
      expect((await get(u.headers, guid).expect(200)).body.ThingUUID).toBe(global.ThingUUID);
      expect((await get(admin, guid, '?admin=true').expect(400)).body).toEqual(errorBody(libraryErrors.sharedGuid, 'LIBRARY_GUID_AMBIGUOUS'));
      for (const e of [global, group, own]) expect((await get(admin, e.ThingUUID, '?admin=true').expect(200)).body.ThingUUID).toBe(e.ThingUUID);
      // a GUID only others use and none readable: 403
      const hidden = await make(stranger.headers, { GUID: '12345678-1234-4234-8234-0000000000ff' });
      expect((await get(u.headers, hidden.GUID).expect(403)).body).toEqual(errorBody(libraryErrors.noAccess, 'LIBRARY_ENTRY_FORBIDDEN'));
      // the admin's own entry with that GUID wins in admin mode
      const mineToo = await make(admin, { GUID: guid });
      expect((await get(admin, guid, '?admin=true').expect(200)).body.ThingUUID).toBe(mineToo.ThingUUID);
    });
  });

  describe('rules 3-5 access matrix (private, group-shared, global; owned by a non-admin)', () => {
    type Who = 'owner' | 'owner?admin=true' | 'member' | 'member?admin=true' | 'stranger' | 'stranger?admin=true' | 'admin' | 'admin?admin=true';
    const roles: Who[] = ['owner', 'owner?admin=true', 'member', 'member?admin=true', 'stranger', 'stranger?admin=true', 'admin', 'admin?admin=true'];
    const who = (w: Who): [Headers, string] => {
      const [name, q] = w.split('?');
      const h = name === 'owner' ? owner.headers : name === 'member' ? member.headers : name === 'stranger' ? stranger.headers : admin;
      return [h, q ? `?${q}` : ''];
    };
    //             owner owner+f member member+f stranger stranger+f admin admin+f
    const READ = {
      priv: [200, 200, 403, 403, 403, 403, 403, 200],
      shared: [200, 200, 200, 200, 403, 403, 403, 200],
      global: [200, 200, 200, 200, 200, 200, 200, 200],
    };
    const WRITE = {
      priv: [200, 200, 403, 403, 403, 403, 403, 200],
      shared: [200, 200, 403, 403, 403, 403, 403, 200],
      global: [200, 200, 403, 403, 403, 403, 403, 200],
    };
    const kinds = ['priv', 'shared', 'global'] as const;

    for (const kind of kinds) {
      roles.forEach((role, i) => {
        it(`GET ${kind} (ThingUUID and GUID) as ${role}: ${READ[kind][i]}`, async () => {
          const objs = await objects();
          const [h, q] = who(role);
          for (const id of [objs[kind].ThingUUID, objs[kind].GUID]) {
            const res = await get(h, id, q);
            expect(res.status).toBe(READ[kind][i]);
            if (res.status === 200) {
              expect(res.body.ThingUUID).toBe(objs[kind].ThingUUID);
              expect(res.body.Can).toEqual(WRITE[kind][i] === 200 ? ALL : NONE);
              expect(res.body.WriteAccess).toEqual(NO_WRITE_ACCESS);
            } else expect(res.body).toEqual(errorBody(libraryErrors.noAccess, 'LIBRARY_ENTRY_FORBIDDEN'));
          }
        });
        it(`PUT ${kind} as ${role}: ${WRITE[kind][i]}`, async () => {
          const objs = await objects();
          const [h, q] = who(role);
          const before = (await get(owner.headers, objs[kind].ThingUUID)).body;
          const res = await put(h, objs[kind].ThingUUID, { ...before, Query: `by ${role}` }, q);
          expect(res.status).toBe(WRITE[kind][i]);
          const after = (await get(owner.headers, objs[kind].ThingUUID)).body;
          if (res.status === 200) {
            expect(res.body).toEqual({ ...before, Query: `by ${role}`, Can: ALL });
            expect(after.Query).toBe(`by ${role}`);
          } else {
            // Who cannot read the entry is not told more than that.
            expect(res.body).toEqual(
              READ[kind][i] === 200 ? errorBody(libraryErrors.onlyOwnerChanges, 'LIBRARY_ENTRY_NOT_YOURS') : errorBody(libraryErrors.noAccess, 'LIBRARY_ENTRY_FORBIDDEN'),
            );
            expect(after).toEqual(before);
          }
        });
        it(`DELETE ${kind} as ${role}: ${WRITE[kind][i]}`, async () => {
          const objs = await objects();
          const [h, q] = who(role);
          const res = await del(h, objs[kind].ThingUUID, q);
          expect(res.status).toBe(WRITE[kind][i]);
          if (res.status === 200) {
            expect(res.text).toBe('null');
            await get(owner.headers, objs[kind].ThingUUID).expect(404);
          } else {
            expect(res.body).toEqual(errorBody(libraryErrors.onlyOwnerDeletes, 'LIBRARY_ENTRY_NOT_YOURS'));
            await get(owner.headers, objs[kind].ThingUUID).expect(200);
          }
        });
      });
    }

    it('unknown ThingUUID/GUID: 404 for everyone', async () => {
      const unknown = '9a9a9a9a-0000-4000-8000-000000000001';
      for (const [h, q] of [
        [owner.headers, ''],
        [admin, '?admin=true'],
      ] as const) {
        expect((await get(h, unknown, q).expect(404)).body).toEqual(errorBody(libraryErrors.notFound, 'LIBRARY_ENTRY_NOT_FOUND'));
        expect((await put(h, unknown, { Name: 'x' }, q).expect(404)).body).toEqual(errorBody(libraryErrors.notFound, 'LIBRARY_ENTRY_NOT_FOUND'));
        expect((await del(h, unknown, q).expect(404)).body).toEqual(errorBody(libraryErrors.notFound, 'LIBRARY_ENTRY_NOT_FOUND'));
      }
    });

    it('without credentials: 401', async () => {
      const { priv } = await objects();
      await request(t.http).get('/api/library').expect(401);
      await request(t.http).get(`/api/library/${priv.ThingUUID}`).expect(401);
      await request(t.http).put(`/api/library/${priv.ThingUUID}`).send({}).expect(401);
      await request(t.http).delete(`/api/library/${priv.ThingUUID}`).expect(401);
      await request(t.http).post('/api/library').send({ Name: 'x', Query: 'q' }).expect(401);
    });

    describe('API tokens', () => {
      it('a token without LibraryRead gets 403 on GETs; with LibraryRead only, 403 on POST/PUT/DELETE', async () => {
        const { priv } = await objects();
        const none = await createToken(t.http, owner.headers, ['DashboardRead']);
        expect((await list(none.headers).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('LibraryRead'), 'API_TOKEN_LACKS_CAPABILITY'));
        expect((await get(none.headers, priv.ThingUUID).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('LibraryRead'), 'API_TOKEN_LACKS_CAPABILITY'));
        const ro = await createToken(t.http, owner.headers, ['LibraryRead']);
        expect((await get(ro.headers, priv.ThingUUID).expect(200)).body.ThingUUID).toBe(priv.ThingUUID);
        expect((await list(ro.headers).expect(200)).body.length).toBeGreaterThan(0);
        expect((await create(ro.headers, { Name: 'x', Query: 'q' }).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('LibraryWrite'), 'API_TOKEN_LACKS_CAPABILITY'));
        expect((await put(ro.headers, priv.ThingUUID, { Name: 'x' }).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('LibraryWrite'), 'API_TOKEN_LACKS_CAPABILITY'));
        expect((await del(ro.headers, priv.ThingUUID).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('LibraryWrite'), 'API_TOKEN_LACKS_CAPABILITY'));
        expect((await get(owner.headers, priv.ThingUUID)).body.Name).toBe('private');
      });
      it('a token with both capabilities acts as its owner', async () => {
        const rw = await createToken(t.http, owner.headers, ['LibraryRead', 'LibraryWrite']);
        const e = (await create(rw.headers, { Name: 'tok', Query: 'q' }).expect(200)).body;
        expect(e.UID).toBe(owner.uid);
        await put(rw.headers, e.ThingUUID, { Name: 'tok2' }).expect(200);
        await del(rw.headers, e.ThingUUID).expect(200);
      });
      it("an admin's token has no admin mode: ?admin=true is ignored", async () => {
        const { priv } = await objects();
        const tok = await createToken(t.http, admin, ['LibraryRead', 'LibraryWrite']);
        expect((await get(tok.headers, priv.ThingUUID, '?admin=true').expect(403)).body).toEqual(errorBody(libraryErrors.noAccess, 'LIBRARY_ENTRY_FORBIDDEN'));
        expect((await del(tok.headers, priv.ThingUUID, '?admin=true').expect(403)).body).toEqual(errorBody(libraryErrors.onlyOwnerDeletes, 'LIBRARY_ENTRY_NOT_YOURS'));
        expect((await create(tok.headers, { Name: 'g', Query: 'q', Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
        await get(owner.headers, priv.ThingUUID).expect(200);
      });
    });
  });

  describe('rule 6: only admins set Global', () => {
    it('non-admin Global:true on create is 403 and nothing is stored', async () => {
      const u = await createUser(t.http, admin);
      expect((await create(u.headers, { Name: 'g', Query: 'q', Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await list(u.headers)).body).toEqual([]);
      await create(u.headers, { Name: 'g', Query: 'q', Global: false }).expect(200);
    });
    it('a non-admin owner cannot change Global but may send it back unchanged; admins may', async () => {
      const { global, priv } = await objects();
      const g = (await get(owner.headers, global.ThingUUID)).body;
      await put(owner.headers, global.ThingUUID, { ...g, Name: 'renamed' }).expect(200);
      expect((await put(owner.headers, global.ThingUUID, { ...g, Global: false }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await put(owner.headers, priv.ThingUUID, { Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await get(owner.headers, priv.ThingUUID)).body.Global).toBe(false);
      expect((await put(admin, priv.ThingUUID, { Global: true }, '?admin=true').expect(200)).body.Global).toBe(true);
      await get(stranger.headers, priv.ThingUUID).expect(200);
      const own = await make(admin, { Global: true });
      expect((await get(stranger.headers, own.ThingUUID).expect(200)).body.Global).toBe(true);
    });
  });

  describe('ownership and sharing', () => {
    it('only admins set another UID; unknown UID is 400', async () => {
      expect((await create(owner.headers, { Name: 'x', Query: 'q', UID: stranger.uid }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'),
      );
      const e = await make(admin, { UID: stranger.uid });
      expect((await get(stranger.headers, e.ThingUUID).expect(200)).body.UID).toBe(stranger.uid);
      expect((await create(admin, { Name: 'x', Query: 'q', UID: 999999 }).expect(400)).body).toEqual(errorBody(sharingErrors.userDoesNotExist(999999), 'OWNER_DOES_NOT_EXIST'));
      const mine = await make(owner.headers, {});
      expect((await put(owner.headers, mine.ThingUUID, { UID: stranger.uid }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'));
      expect((await put(admin, mine.ThingUUID, { UID: stranger.uid }, '?admin=true').expect(200)).body.UID).toBe(stranger.uid);
    });
    it('GIDs: unknown groups 400; non-admins share only with their own groups', async () => {
      expect((await create(owner.headers, { Name: 'x', Query: 'q', GIDs: [999999] }).expect(400)).body).toEqual(
        errorBody(sharingErrors.unknownGroup(999999, 'GIDs'), 'UNKNOWN_GROUPS'),
      );
      expect((await create(owner.headers, { Name: 'x', Query: 'q', GIDs: [otherGid] }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyOwnGroups(otherGid), 'NOT_A_MEMBER_OF_GROUPS'),
      );
      const e = await make(owner.headers, { GIDs: [gid] });
      expect((await put(owner.headers, e.ThingUUID, { GIDs: [] }).expect(200)).body).not.toHaveProperty('GIDs');
      await get(member.headers, e.ThingUUID).expect(403);
    });
    it('update: absent fields keep their value, present ones (even empty) replace it', async () => {
      const e = await make(owner.headers, { Description: 'd', Labels: ['l'], Metadata: { m: 1 }, GIDs: [gid] });
      const kept = (await put(owner.headers, e.ThingUUID, { Name: 'only' }).expect(200)).body;
      expect(kept).toEqual(expect.objectContaining({ Name: 'only', Description: 'd', Labels: ['l'], Metadata: { m: 1 }, GIDs: [gid], Query: 'tag=default', GUID: e.GUID }));
      const emptied = (await put(owner.headers, e.ThingUUID, { Description: '', Labels: [], Metadata: null, Query: '' }).expect(200)).body;
      expect(emptied).toEqual({
        ThingUUID: e.ThingUUID,
        GUID: e.GUID,
        UID: owner.uid,
        GIDs: [gid],
        Global: false,
        Name: 'only',
        Description: '',
        Query: '',
        Can: ALL,
        WriteAccess: NO_WRITE_ACCESS,
      });
      const guid = 'fedcba98-7654-4321-8765-43210fedcba9';
      expect((await put(owner.headers, e.ThingUUID, { GUID: guid }).expect(200)).body.GUID).toBe(guid);
    });
    it('a deleted group disappears from GIDs', async () => {
      const g = await createGroup(t.http, admin);
      const e = await make(admin, { UID: owner.uid, GIDs: [g, gid] });
      await request(t.http).delete(`/api/groups/${g}`).set(admin).expect(200);
      expect((await get(owner.headers, e.ThingUUID)).body.GIDs).toEqual([gid]);
    });

    it('a deleted owner takes the entries along', async () => {
      const u = await createUser(t.http, admin);
      const e = await make(u.headers, {});
      await request(t.http).delete(`/api/users/${u.uid}`).set(admin).expect(200);
      await get(admin, e.ThingUUID, '?admin=true').expect(404);
    });
  });

  describe('bad input: 4xx with {Error}, stored entry unchanged', () => {
    let e: { ThingUUID: string };
    let before: Record<string, unknown>;
    beforeAll(async () => {
      e = await make(owner.headers, { Name: 'stable', Labels: ['l'], GIDs: [gid], Metadata: { a: 1 } });
      before = (await get(owner.headers, e.ThingUUID)).body;
    });
    afterEach(async () => {
      expect((await get(owner.headers, e.ThingUUID)).body).toEqual(before);
    });

    it.each([
      ['Name a number', { Name: 5 }, invalid(maxLength('Name', 256))],
      ['Name too long', { Name: 'n'.repeat(257) }, invalid(maxLength('Name', 256))],
      ['Query an array', { Query: ['x'] }, invalid(maxLength('Query', 65536))],
      ['Query huge', { Query: 'q'.repeat(70000) }, invalid(maxLength('Query', 65536))],
      ['Description a number', { Description: 1 }, invalid(maxLength('Description', 65536))],
      ['GIDs a string', { GIDs: 'x' }, invalid('GIDs must be an array')],
      // The one group-list rule of every shared object: at most 256 groups (the library allowed 1,000 before).
      ['GIDs too many', { GIDs: Array.from({ length: 257 }, (_, i) => i + 1) }, invalid(maxItems('GIDs', 256))],
      ['GIDs negative', { GIDs: [-1] }, invalid(each('GIDs', 'must not be less than 1'))],
      ['GIDs with a float', { GIDs: [1.5] }, invalid(each('GIDs', 'must be an integer number'))],
      ['Labels not strings', { Labels: [{}] }, invalid(each('Labels', 'must be shorter than or equal to 256 characters'))],
      ['Global a number', { Global: 1 }, invalid(boolean('Global'))],
      ['UID a string', { UID: 'x' }, invalid(max('UID', 2147483647))],
      ['GUID not a UUID', { GUID: 'not-a-uuid' }, errorBody(requestErrors.guidMustBeUuid, 'INVALID_GUID')],
      ['GUID a number', { GUID: 7 }, errorBody(requestErrors.guidMustBeUuid, 'INVALID_GUID')],
      ['Metadata invalid JSON text', { Metadata: '{"a":' }, errorBody(requestErrors.mustBeValidJson('Metadata'), 'INVALID_JSON_FIELD')],
    ])('PUT with %s: 400', async (_, body, expected) => {
      const res = await put(owner.headers, e.ThingUUID, { ...before, ...body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    });

    it.each([
      ['Name missing', { Query: 'q' }, invalid(maxLength('Name', 256))],
      ['Query missing', { Name: 'n' }, invalid(maxLength('Query', 65536))],
      ['GUID invalid', { Name: 'n', Query: 'q', GUID: 'zzz' }, errorBody(requestErrors.guidMustBeUuid, 'INVALID_GUID')],
      ['Labels a string', { Name: 'n', Query: 'q', Labels: 'x' }, invalid(maxItems('Labels', 100))],
      ['GIDs too many', { Name: 'n', Query: 'q', GIDs: Array.from({ length: 257 }, (_, i) => i + 1) }, invalid(maxItems('GIDs', 256))],
    ])('POST with %s: 400', async (_, body, expected) => {
      expect((await create(owner.headers, body).expect(400)).body).toEqual(expected);
    });

    it('malformed JSON and non-object bodies: 400', async () => {
      const bad = await request(t.http).put(`/api/library/${e.ThingUUID}`).set(owner.headers).set('Content-Type', 'application/json').send('{"Name":');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));
      const arr = await request(t.http).post('/api/library').set(owner.headers).set('Content-Type', 'application/json').send('[1,2]');
      expect(arr.status).toBe(400);
      // An array is validated as if it were the entry (both required fields missing).
      expect(arr.body).toEqual(errorBody(invalidRequest(maxLength('Name', 256), maxLength('Query', 65536)), 'VALIDATION_FAILED'));
    });

    it.each(['abc', '123', '1234567-1234-4234-8234-123456789abc', '12345678-1234-4234-8234-123456789abcd', "'; DROP TABLE library_entry; --"])(
      'invalid UUID %s in the URL: 400',
      async (bad) => {
        const id = encodeURIComponent(bad);
        expect((await get(owner.headers, id).expect(400)).body).toEqual(errorBody(requestErrors.invalidUuid(bad), 'INVALID_UUID'));
        expect((await put(owner.headers, id, { Name: 'x' }).expect(400)).body).toEqual(errorBody(requestErrors.invalidUuid(bad), 'INVALID_UUID'));
        expect((await del(owner.headers, id).expect(400)).body).toEqual(errorBody(requestErrors.invalidUuid(bad), 'INVALID_UUID'));
      },
    );

    it('hostile strings are stored verbatim; a NUL character in a text field is a 400', async () => {
      const x = await make(owner.headers, { Name: '<img src=x onerror=alert(1)>', Query: "tag=x'; --", Metadata: { s: '\u0000' } });
      expect((await get(owner.headers, x.ThingUUID)).body).toEqual(
        expect.objectContaining({ Name: '<img src=x onerror=alert(1)>', Query: "tag=x'; --", Metadata: { s: '\u0000' } }),
      );
      expect((await create(owner.headers, { Name: 'a\u0000', Query: 'q' }).expect(400)).body).toEqual(errorBody(requestErrors.invalidValue, 'INVALID_VALUE'));
    });
  });
});
