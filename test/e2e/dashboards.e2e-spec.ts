import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, dashboardErrors, errorBody, fieldErrors, groupErrors, requestErrors, sharingErrors, userErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

const { invalidRequest } = requestErrors;
/** A 400 of the validation pipe, as a whole body. */
const invalid = (...problems: string[]) => errorBody(invalidRequest(...problems), 'VALIDATION_FAILED');
const { boolean, each, max, maxItems, maxLength, min } = fieldErrors;
const MAX_SAFE = 2 ** 53 - 1;

describe('dashboards', () => {
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

  const create = (h: Headers, body: object) => request(t.http).post('/api/dashboards').set(h).send(body);
  const get = (h: Headers, id: number | string, q = '') => request(t.http).get(`/api/dashboards/${id}${q}`).set(h);
  const put = (h: Headers, id: number | string, body: object, q = '') => request(t.http).put(`/api/dashboards/${id}${q}`).set(h).send(body);
  const del = (h: Headers, id: number | string, q = '') => request(t.http).delete(`/api/dashboards/${id}${q}`).set(h);

  async function make(h: Headers, body: object): Promise<number> {
    const res = await create(h, { Name: 'dash', ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as number;
  }

  /** A private, a group-shared and a global dashboard, all owned by `owner`. */
  async function objects() {
    const priv = await make(owner.headers, { Name: 'private' });
    const shared = await make(owner.headers, { Name: 'shared', GIDs: [gid] });
    const global = await make(admin, { Name: 'global', UID: owner.uid, Global: true });
    return { priv, shared, global };
  }

  describe('create and read', () => {
    it('POST returns the numeric ID (1..2^53-1); GET returns the whole structure', async () => {
      const res = await create(owner.headers, {
        Name: 'First',
        Description: 'desc',
        GIDs: [gid],
        Labels: ['a', 'b'],
        Data: { tiles: [], searches: [], timeframe: { timeframe: 'PT1H' }, version: 2 },
      }).expect(200);
      expect(typeof res.body).toBe('number');
      expect(Number.isSafeInteger(res.body)).toBe(true);
      expect(res.body).toBeGreaterThanOrEqual(1);
      expect(res.body).toBeLessThanOrEqual(MAX_SAFE);
      const got = await get(owner.headers, res.body).expect(200);
      expect(got.body).toEqual({
        ID: res.body,
        GUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        Name: 'First',
        Description: 'desc',
        UID: owner.uid,
        GIDs: [gid],
        Global: false,
        Created: expect.any(String),
        Updated: expect.any(String),
        Labels: ['a', 'b'],
        Data: { tiles: [], searches: [], timeframe: { timeframe: 'PT1H' }, version: 2 },
        Synced: false,
      });
      expect(new Date(got.body.Created).toISOString()).toBe(got.body.Created);
    });

    it('IDs are random and distinct', async () => {
      const ids = await Promise.all([1, 2, 3, 4, 5].map(() => make(owner.headers, {})));
      expect(new Set(ids).size).toBe(5);
      for (const id of ids) expect(id).toBeLessThanOrEqual(MAX_SAFE);
    });

    it('defaults: Description null means empty; GIDs and Labels absent are null; Global false', async () => {
      const id = await make(owner.headers, { Name: 'defaults', Description: null });
      expect((await get(owner.headers, id)).body).toEqual(expect.objectContaining({ Description: '', GIDs: null, Labels: null, Global: false, Data: {} }));
    });
  });

  describe('rule 1: UID defaults to the requester; only admins set another UID', () => {
    it('defaults to the requester', async () => {
      const id = await make(stranger.headers, {});
      expect((await get(stranger.headers, id)).body.UID).toBe(stranger.uid);
    });
    it('a non-admin may send the own UID but not another', async () => {
      const id = await make(stranger.headers, { UID: stranger.uid });
      expect((await get(stranger.headers, id)).body.UID).toBe(stranger.uid);
      const before = (await request(t.http).get('/api/dashboards?admin=true').set(admin)).body.length;
      expect((await create(stranger.headers, { Name: 'x', UID: owner.uid }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'));
      expect((await request(t.http).get('/api/dashboards?admin=true').set(admin)).body.length).toBe(before);
    });
    it('an admin creates for another user; an unknown UID is a 400', async () => {
      const id = await make(admin, { UID: stranger.uid });
      expect((await get(stranger.headers, id).expect(200)).body.UID).toBe(stranger.uid);
      expect((await create(admin, { Name: 'x', UID: 999999 }).expect(400)).body).toEqual(errorBody(sharingErrors.userDoesNotExist(999999), 'OWNER_DOES_NOT_EXIST'));
    });
  });

  describe('rule 2: empty GIDs share with nobody', () => {
    it('stores [] and a group member cannot read it', async () => {
      const id = await make(owner.headers, { GIDs: [] });
      expect((await get(owner.headers, id)).body.GIDs).toEqual([]);
      await get(member.headers, id).expect(404);
    });
    it('unknown groups are a 400; a non-admin shares only with own groups (403); admins with any', async () => {
      expect((await create(owner.headers, { Name: 'x', GIDs: [999999] }).expect(400)).body).toEqual(errorBody(sharingErrors.unknownGroup(999999, 'GIDs'), 'UNKNOWN_GROUPS'));
      expect((await create(owner.headers, { Name: 'x', GIDs: [otherGid] }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyOwnGroups(otherGid), 'NOT_A_MEMBER_OF_GROUPS'));
      const id = await make(admin, { UID: owner.uid, GIDs: [otherGid, otherGid] });
      expect((await get(owner.headers, id)).body.GIDs).toEqual([otherGid]);
    });
  });

  describe('rule 3: only admins set Global', () => {
    it('non-admin Global:true is 403 and nothing is created; Global:false is fine', async () => {
      const before = (await request(t.http).get('/api/dashboards?admin=true').set(admin)).body.length;
      expect((await create(owner.headers, { Name: 'g', Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await request(t.http).get('/api/dashboards?admin=true').set(admin)).body.length).toBe(before);
      await create(owner.headers, { Name: 'g', Global: false }).expect(200);
    });
    it('an admin makes a dashboard global and every user can read it', async () => {
      const id = await make(admin, { Global: true });
      expect((await get(stranger.headers, id).expect(200)).body.Global).toBe(true);
    });
    it('a non-admin owner cannot change Global on update but may send it back unchanged', async () => {
      const { global, priv } = await objects();
      const g = (await get(owner.headers, global)).body;
      await put(owner.headers, global, { ...g, Name: 'renamed' }).expect(200);
      expect((await put(owner.headers, global, { ...g, Global: false }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await put(owner.headers, priv, { Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await get(owner.headers, global)).body.Global).toBe(true);
      expect((await get(owner.headers, priv)).body.Global).toBe(false);
    });
  });

  describe('rule 4: GUID', () => {
    it('a valid supplied GUID is used (lower-cased); an invalid or absent one is generated', async () => {
      const guid = 'A0B1C2D3-E4F5-4711-8899-AABBCCDDEEFF';
      const a = await make(owner.headers, { GUID: guid });
      expect((await get(owner.headers, a)).body.GUID).toBe(guid.toLowerCase());
      for (const bad of ['not-a-uuid', '', 42, null, { x: 1 }]) {
        const id = await make(owner.headers, { GUID: bad });
        expect((await get(owner.headers, id)).body.GUID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
    });
    it('GET and PUT accept the GUID; with several sharing one, the caller gets own > group > global', async () => {
      const guid = '11111111-2222-4333-8444-555555555555';
      // The group's copy comes first: only the first holder of a GUID (or an admin) may share it.
      const groupId = await make(owner.headers, { GUID: guid, GIDs: [gid], Name: 'grp' });
      const globalId = await make(admin, { GUID: guid, Global: true, Name: 'g' });
      const ownId = await make(member.headers, { GUID: guid, Name: 'own' });
      expect((await get(member.headers, guid).expect(200)).body.ID).toBe(ownId);
      expect((await get(owner.headers, guid).expect(200)).body.ID).toBe(groupId);
      expect((await get(stranger.headers, guid).expect(200)).body.ID).toBe(globalId);
      expect((await get(admin, guid).expect(200)).body.ID).toBe(globalId);
      const res = await put(member.headers, guid, { Name: 'own renamed' }).expect(200);
      expect(res.body.ID).toBe(ownId);
      expect(res.body.Name).toBe('own renamed');
      expect((await put(stranger.headers, guid, { Name: 'nope' }).expect(403)).body).toEqual(errorBody(dashboardErrors.ownerOrAdmin, 'DASHBOARD_NOT_YOURS'));
      await get(stranger.headers, '99999999-2222-4333-8444-555555555555').expect(404);
    });
    it('a valid GUID on update replaces it; an invalid one keeps the stored one', async () => {
      const id = await make(owner.headers, {});
      const guid = '22222222-2222-4333-8444-555555555555';
      expect((await put(owner.headers, id, { GUID: guid }).expect(200)).body.GUID).toBe(guid);
      expect((await put(owner.headers, id, { GUID: 'junk' }).expect(200)).body.GUID).toBe(guid);
    });
  });

  describe('rule 5: Data may be blank or initialised; it must be valid JSON', () => {
    it.each([
      ['absent', undefined, {}],
      ['null', null, {}],
      ['empty string', '', {}],
      ['blank string', '   ', {}],
      ['with tiles', { tiles: [] }, { tiles: [] }],
      ['JSON text', '{"tiles":[],"searches":[]}', { tiles: [], searches: [] }],
      ['JSON text of a string', '"123"', '123'],
      ['a number', 7, 7],
      ['an array', [1, { a: 2 }], [1, { a: 2 }]],
      [
        'nested',
        { grid: { gutter: '8', margin: null }, tiles: [{ id: 1, span: { col: 1, row: 2, x: 0, y: 0 } }] },
        { grid: { gutter: '8', margin: null }, tiles: [{ id: 1, span: { col: 1, row: 2, x: 0, y: 0 } }] },
      ],
    ])('%s', async (_, data, stored) => {
      const id = await make(owner.headers, data === undefined ? {} : { Data: data });
      expect((await get(owner.headers, id)).body.Data).toEqual(stored);
    });
    it('invalid JSON text is a 400 on create and update; the stored Data is unchanged', async () => {
      expect((await create(owner.headers, { Name: 'x', Data: '{"tiles": [' }).expect(400)).body).toEqual(errorBody(requestErrors.mustBeValidJson('Data'), 'INVALID_JSON_FIELD'));
      const id = await make(owner.headers, { Data: { tiles: [1] } });
      expect((await put(owner.headers, id, { Name: 'changed', Data: 'nope{' }).expect(400)).body).toEqual(errorBody(requestErrors.mustBeValidJson('Data'), 'INVALID_JSON_FIELD'));
      const after = (await get(owner.headers, id)).body;
      expect(after.Data).toEqual({ tiles: [1] });
      expect(after.Name).toBe('dash');
    });
  });

  describe('rule 6 and product-notes §8: update semantics', () => {
    it('the whole fetched structure sent back (read-only fields included) updates it', async () => {
      const id = await make(owner.headers, { GIDs: [gid], Labels: ['x'], Data: { tiles: [] } });
      const fetched = (await get(owner.headers, id)).body;
      const res = await put(owner.headers, id, { ...fetched, Name: 'new', ID: 1, Created: 'x', Synced: true, WriteAccess: {} }).expect(200);
      expect(res.body).toEqual({ ...fetched, Name: 'new', Updated: expect.any(String) });
      expect(new Date(res.body.Updated).getTime()).toBeGreaterThanOrEqual(new Date(fetched.Updated).getTime());
      expect(await get(owner.headers, id).then((r) => r.body)).toEqual(res.body);
    });
    it('an absent field keeps its value; a present one, even empty, replaces it', async () => {
      const guid = '33333333-2222-4333-8444-555555555555';
      const id = await make(owner.headers, { GUID: guid, Description: 'd', GIDs: [gid], Labels: ['l'], Data: { a: 1 } });
      const kept = (await put(owner.headers, id, { Name: 'only name' }).expect(200)).body;
      expect(kept).toEqual(expect.objectContaining({ Name: 'only name', Description: 'd', GIDs: [gid], Labels: ['l'], Data: { a: 1 }, UID: owner.uid, GUID: guid }));
      const emptied = (await put(owner.headers, id, { Description: '', GIDs: [], Labels: null, Data: {} }).expect(200)).body;
      expect(emptied).toEqual(expect.objectContaining({ Name: 'only name', Description: '', GIDs: [], Labels: null, Data: {}, UID: owner.uid, GUID: guid }));
      expect((await put(owner.headers, id, { GIDs: null, Description: null }).expect(200)).body).toEqual(expect.objectContaining({ GIDs: null, Description: '' }));
      await get(member.headers, id).expect(404);
    });
    it('only admins hand a dashboard to another owner', async () => {
      const id = await make(owner.headers, {});
      expect((await put(owner.headers, id, { UID: stranger.uid }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'));
      await put(owner.headers, id, { UID: owner.uid }).expect(200);
      expect((await put(admin, id, { UID: stranger.uid }).expect(200)).body.UID).toBe(stranger.uid);
      await get(owner.headers, id).expect(404);
      expect((await put(admin, id, { UID: 999999 }).expect(400)).body).toEqual(errorBody(sharingErrors.userDoesNotExist(999999), 'OWNER_DOES_NOT_EXIST'));
    });
    it('a non-admin may keep groups they left but not add ones they are not in', async () => {
      const g2 = await createGroup(t.http, admin);
      const id = await make(admin, { UID: owner.uid, GIDs: [g2] });
      await put(owner.headers, id, { GIDs: [g2, gid] }).expect(200);
      expect((await put(owner.headers, id, { GIDs: [g2, gid, otherGid] }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyOwnGroups(otherGid), 'NOT_A_MEMBER_OF_GROUPS'));
      expect((await get(owner.headers, id)).body.GIDs).toEqual([g2, gid]);
    });
  });

  describe('access matrix (private, group-shared, global; all owned by a non-admin)', () => {
    type Who = 'owner' | 'member' | 'stranger' | 'admin' | 'admin?admin=true';
    const who = (w: Who): [Headers, string] =>
      w === 'owner'
        ? [owner.headers, '']
        : w === 'member'
          ? [member.headers, '']
          : w === 'stranger'
            ? [stranger.headers, '']
            : w === 'admin'
              ? [admin, '']
              : [admin, '?admin=true'];
    const roles: Who[] = ['owner', 'member', 'stranger', 'admin', 'admin?admin=true'];
    const READ = { priv: [200, 404, 404, 200, 200], shared: [200, 200, 404, 200, 200], global: [200, 200, 200, 200, 200] };
    const WRITE = { priv: [200, 404, 404, 200, 200], shared: [200, 403, 404, 200, 200], global: [200, 403, 403, 200, 200] };
    const kinds = ['priv', 'shared', 'global'] as const;
    /** Hidden objects are not found; visible ones the caller may not change are refused. */
    const DENIED: Record<number, { Error: string }> = {
      403: errorBody(dashboardErrors.ownerOrAdmin, 'DASHBOARD_NOT_YOURS'),
      404: errorBody(dashboardErrors.notFound, 'DASHBOARD_NOT_FOUND'),
    };

    for (const kind of kinds) {
      roles.forEach((role, i) => {
        it(`GET ${kind} by ID and by GUID as ${role}: ${READ[kind][i]}`, async () => {
          const objs = await objects();
          const [h, q] = who(role);
          const res = await get(h, objs[kind], q);
          expect(res.status).toBe(READ[kind][i]);
          if (res.status === 200) expect(res.body.ID).toBe(objs[kind]);
          else expect(res.body).toEqual(DENIED[res.status]);
          const guid = (await get(owner.headers, objs[kind])).body.GUID;
          const byGuid = await get(h, guid, q);
          expect(byGuid.status).toBe(READ[kind][i]);
        });
        it(`PUT ${kind} as ${role}: ${WRITE[kind][i]}`, async () => {
          const objs = await objects();
          const [h, q] = who(role);
          const before = (await get(owner.headers, objs[kind])).body;
          const res = await put(h, objs[kind], { Name: `by ${role}` }, q);
          expect(res.status).toBe(WRITE[kind][i]);
          const after = (await get(owner.headers, objs[kind])).body;
          if (res.status === 200) expect(after.Name).toBe(`by ${role}`);
          else {
            expect(res.body).toEqual(DENIED[res.status]);
            expect(after).toEqual(before);
          }
        });
        it(`DELETE ${kind} as ${role}: ${WRITE[kind][i]}`, async () => {
          const objs = await objects();
          const [h, q] = who(role);
          const res = await del(h, objs[kind], q);
          expect(res.status).toBe(WRITE[kind][i]);
          if (res.status === 200) {
            expect(res.text).toBe('null');
            await get(owner.headers, objs[kind]).expect(404);
          } else {
            expect(res.body).toEqual(DENIED[res.status]);
            await get(owner.headers, objs[kind]).expect(200);
          }
        });
      });
    }

    it('without credentials: 401', async () => {
      const { priv } = await objects();
      await request(t.http).get(`/api/dashboards/${priv}`).expect(401);
      await request(t.http).put(`/api/dashboards/${priv}`).send({}).expect(401);
      await request(t.http).delete(`/api/dashboards/${priv}`).expect(401);
      await request(t.http).get('/api/dashboards').expect(401);
      await request(t.http).post('/api/dashboards').send({ Name: 'x' }).expect(401);
    });

    it('API token without DashboardRead: 403 on every GET route; without DashboardWrite: 403 on POST/PUT/DELETE', async () => {
      const objs = await objects();
      const none = await createToken(t.http, owner.headers, ['LibraryRead']);
      for (const path of ['/api/dashboards', '/api/dashboards/all', `/api/dashboards/${objs.priv}`, `/api/users/${owner.uid}/dashboards`, `/api/groups/${gid}/dashboards`]) {
        const res = await request(t.http).get(path).set(none.headers);
        expect(res.status).toBe(403);
        expect(res.body).toEqual(errorBody(authErrors.tokenLacks('DashboardRead'), 'API_TOKEN_LACKS_CAPABILITY'));
      }
      const ro = await createToken(t.http, owner.headers, ['DashboardRead']);
      expect((await get(ro.headers, objs.priv).expect(200)).body.ID).toBe(objs.priv);
      expect((await create(ro.headers, { Name: 'x' }).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('DashboardWrite'), 'API_TOKEN_LACKS_CAPABILITY'));
      expect((await put(ro.headers, objs.priv, { Name: 'x' }).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('DashboardWrite'), 'API_TOKEN_LACKS_CAPABILITY'));
      expect((await del(ro.headers, objs.priv).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('DashboardWrite'), 'API_TOKEN_LACKS_CAPABILITY'));
      expect((await get(owner.headers, objs.priv)).body.Name).toBe('private');
      const rw = await createToken(t.http, owner.headers, ['DashboardRead', 'DashboardWrite']);
      const id = (await create(rw.headers, { Name: 'tok' }).expect(200)).body;
      await put(rw.headers, id, { Name: 'tok2' }).expect(200);
      await del(rw.headers, id).expect(200);
    });

    it("an admin's token has no admin rights (other users' private dashboards are hidden; ?admin=true ignored; Global refused)", async () => {
      const objs = await objects();
      const tok = await createToken(t.http, admin, ['DashboardRead', 'DashboardWrite']);
      await get(tok.headers, objs.priv, '?admin=true').expect(404);
      await del(tok.headers, objs.priv, '?admin=true').expect(404);
      const listed = (await request(t.http).get('/api/dashboards?admin=true').set(tok.headers).expect(200)).body.map((d: { ID: number }) => d.ID);
      expect(listed).not.toContain(objs.priv);
      expect((await create(tok.headers, { Name: 'g', Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      await get(owner.headers, objs.priv).expect(200);
    });
  });

  describe('lists', () => {
    let objs: { priv: number; shared: number; global: number };
    let strangerOwn: number;
    let lister: TestUser;
    let listerGroupMate: TestUser;
    let lgid: number;
    beforeAll(async () => {
      // isolated users so the lists are exact
      lister = await createUser(t.http, admin, { prefix: 'lister' });
      listerGroupMate = await createUser(t.http, admin, { prefix: 'mate' });
      lgid = await createGroup(t.http, admin);
      await addToGroup(t.http, admin, lister.uid, lgid);
      await addToGroup(t.http, admin, listerGroupMate.uid, lgid);
      objs = {
        priv: await make(lister.headers, { Name: 'lp' }),
        shared: await make(lister.headers, { Name: 'ls', GIDs: [lgid] }),
        global: await make(admin, { Name: 'lg', UID: lister.uid, Global: true }),
      };
      strangerOwn = await make(stranger.headers, { Name: 'stranger own' });
    });
    const ids = (body: Array<{ ID: number }>) => body.map((d) => d.ID).sort();
    const allGlobal = async () =>
      (await request(t.http).get('/api/dashboards?admin=true').set(admin)).body.filter((d: { Global: boolean }) => d.Global).map((d: { ID: number }) => d.ID);

    it('GET /api/dashboards: own, through a group, and global ones; never others', async () => {
      const globals: number[] = await allGlobal();
      const mine = await request(t.http).get('/api/dashboards').set(lister.headers).expect(200);
      expect(ids(mine.body)).toEqual([...new Set([objs.priv, objs.shared, objs.global, ...globals])].sort());
      const mate = await request(t.http).get('/api/dashboards').set(listerGroupMate.headers).expect(200);
      expect(ids(mate.body)).toEqual([objs.shared, ...globals].sort());
      expect(mate.body.find((d: { ID: number }) => d.ID === objs.shared)).toEqual(expect.objectContaining({ Name: 'ls', UID: lister.uid, GIDs: [lgid] }));
    });

    it('?admin=true lists every dashboard for admins and is ignored for others', async () => {
      const all = await request(t.http).get('/api/dashboards?admin=true').set(admin).expect(200);
      expect(ids(all.body)).toEqual(expect.arrayContaining([objs.priv, objs.shared, objs.global, strangerOwn]));
      const plainAdmin = await request(t.http).get('/api/dashboards').set(admin).expect(200);
      expect(ids(plainAdmin.body)).not.toContain(objs.priv);
      const ignored = await request(t.http).get('/api/dashboards?admin=true').set(listerGroupMate.headers).expect(200);
      expect(ids(ignored.body)).toEqual(ids((await request(t.http).get('/api/dashboards').set(listerGroupMate.headers)).body));
    });

    it('GET /api/dashboards/all: admins every dashboard, others the same as /api/dashboards', async () => {
      const all = await request(t.http).get('/api/dashboards/all').set(admin).expect(200);
      expect(ids(all.body)).toEqual(ids((await request(t.http).get('/api/dashboards?admin=true').set(admin)).body));
      const mate = await request(t.http).get('/api/dashboards/all').set(listerGroupMate.headers).expect(200);
      expect(ids(mate.body)).toEqual(ids((await request(t.http).get('/api/dashboards').set(listerGroupMate.headers)).body));
    });

    it('GET /api/users/{uid}/dashboards: owned by that UID only, and only what the caller may read', async () => {
      const own = await request(t.http).get(`/api/users/${lister.uid}/dashboards`).set(lister.headers).expect(200);
      expect(ids(own.body)).toEqual([objs.priv, objs.shared, objs.global].sort());
      const byAdmin = await request(t.http).get(`/api/users/${lister.uid}/dashboards`).set(admin).expect(200);
      expect(ids(byAdmin.body)).toEqual([objs.priv, objs.shared, objs.global].sort());
      const mateOwn = await request(t.http).get(`/api/users/${listerGroupMate.uid}/dashboards`).set(listerGroupMate.headers).expect(200);
      expect(mateOwn.body).toEqual([]);
      const byMate = await request(t.http).get(`/api/users/${lister.uid}/dashboards`).set(listerGroupMate.headers).expect(200);
      expect(ids(byMate.body)).toEqual([objs.shared, objs.global].sort());
      const byStranger = await request(t.http).get(`/api/users/${lister.uid}/dashboards`).set(stranger.headers).expect(200);
      expect(ids(byStranger.body)).toEqual([objs.global]);
      // group access is excluded: the mate's own list holds nothing shared with them
      expect(ids((await request(t.http).get(`/api/users/${listerGroupMate.uid}/dashboards`).set(lister.headers).expect(200)).body)).toEqual([]);
      expect((await request(t.http).get('/api/users/999999/dashboards').set(admin).expect(404)).body).toEqual(errorBody(userErrors.notFound, 'USER_NOT_FOUND'));
      expect((await request(t.http).get('/api/users/abc/dashboards').set(admin).expect(400)).body).toEqual(errorBody(requestErrors.invalidId('abc'), 'INVALID_ID'));
    });

    it('GET /api/groups/{gid}/dashboards: shared with that group; members and admins only', async () => {
      const m = await request(t.http).get(`/api/groups/${lgid}/dashboards`).set(listerGroupMate.headers).expect(200);
      expect(ids(m.body)).toEqual([objs.shared]);
      expect(ids((await request(t.http).get(`/api/groups/${lgid}/dashboards`).set(admin).expect(200)).body)).toEqual([objs.shared]);
      expect((await request(t.http).get(`/api/groups/${lgid}/dashboards`).set(stranger.headers).expect(403)).body).toEqual(
        errorBody(dashboardErrors.membersOnly, 'GROUP_DASHBOARDS_FORBIDDEN'),
      );
      expect((await request(t.http).get('/api/groups/999999/dashboards').set(admin).expect(404)).body).toEqual(errorBody(groupErrors.notFound, 'GROUP_NOT_FOUND'));
      expect((await request(t.http).get('/api/groups/0/dashboards').set(admin).expect(400)).body).toEqual(errorBody(requestErrors.invalidId('0'), 'INVALID_ID'));
    });

    it('a deleted group disappears from GIDs', async () => {
      const g = await createGroup(t.http, admin);
      const id = await make(admin, { UID: owner.uid, GIDs: [g, gid] });
      await request(t.http).delete(`/api/groups/${g}`).set(admin).expect(200);
      expect((await get(owner.headers, id)).body.GIDs).toEqual([gid]);
    });

    it('a user who leaves the group loses access at once', async () => {
      const u = await createUser(t.http, admin);
      await addToGroup(t.http, admin, u.uid, lgid);
      await get(u.headers, objs.shared).expect(200);
      await request(t.http).delete(`/api/users/${u.uid}/group/${lgid}`).set(admin).expect(200);
      await get(u.headers, objs.shared).expect(404);
      expect(ids((await request(t.http).get('/api/dashboards').set(u.headers)).body)).not.toContain(objs.shared);
    });
  });

  describe('bad input: 4xx with {Error}, stored object unchanged', () => {
    let id: number;
    let before: object;
    beforeAll(async () => {
      id = await make(owner.headers, { Name: 'stable', Labels: ['l'], GIDs: [gid], Data: { tiles: [] } });
      before = (await get(owner.headers, id)).body;
    });
    afterEach(async () => {
      expect((await get(owner.headers, id)).body).toEqual(before);
    });

    it.each([
      ['Name a number', { Name: 5 }, invalid(maxLength('Name', 256))],
      ['Name too long', { Name: 'n'.repeat(257) }, invalid(maxLength('Name', 256))],
      ['Description an object', { Description: { a: 1 } }, invalid(maxLength('Description', 65536))],
      ['Description huge', { Description: 'd'.repeat(70000) }, invalid(maxLength('Description', 65536))],
      ['GIDs a string', { GIDs: 'x' }, invalid('GIDs must be an array')],
      ['GIDs with 0', { GIDs: [0] }, invalid(each('GIDs', 'must not be less than 1'))],
      ['GIDs with a string', { GIDs: ['1'] }, invalid(each('GIDs', 'must be an integer number'))],
      // The one group-list rule of every shared object: at most 256 groups (dashboards allowed 1,000 before).
      ['GIDs too many', { GIDs: Array.from({ length: 257 }, (_, i) => i + 1) }, invalid(maxItems('GIDs', 256))],
      ['Labels numbers', { Labels: [1] }, invalid(each('Labels', 'must be shorter than or equal to 256 characters'))],
      ['Labels a string', { Labels: 'l' }, invalid(maxItems('Labels', 100))],
      ['Label too long', { Labels: ['x'.repeat(300)] }, invalid(each('Labels', 'must be shorter than or equal to 256 characters'))],
      ['Global a string', { Global: 'yes' }, invalid(boolean('Global'))],
      ['UID a string', { UID: 'me' }, invalid(max('UID', 2147483647))],
      ['UID negative', { UID: -1 }, invalid(min('UID', 1))],
      ['Data invalid JSON text', { Data: '{' }, errorBody(requestErrors.mustBeValidJson('Data'), 'INVALID_JSON_FIELD')],
    ])('PUT with %s: 400', async (_, body, expected) => {
      const res = await put(owner.headers, id, { ...before, ...body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    });

    it.each([
      ['Name missing', { Data: {} }, invalid(maxLength('Name', 256))],
      ['Name a number', { Name: 1 }, invalid(maxLength('Name', 256))],
      ['GIDs a number', { Name: 'x', GIDs: 3 }, invalid('GIDs must be an array')],
      ['GIDs too many', { Name: 'x', GIDs: Array.from({ length: 257 }, (_, i) => i + 1) }, invalid(maxItems('GIDs', 256))],
    ])('POST with %s: 400', async (_, body, expected) => {
      expect((await create(owner.headers, body).expect(400)).body).toEqual(expected);
    });

    it('malformed JSON body: 400', async () => {
      const res = await request(t.http).put(`/api/dashboards/${id}`).set(owner.headers).set('Content-Type', 'application/json').send('{"Name": ');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));
      const post = await request(t.http).post('/api/dashboards').set(owner.headers).set('Content-Type', 'application/json').send('[}');
      expect(post.status).toBe(400);
    });

    it('a non-object body: 400', async () => {
      const res = await request(t.http).put(`/api/dashboards/${id}`).set(owner.headers).set('Content-Type', 'application/json').send('"str"');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBody(requestErrors.notAnObject, 'VALIDATION_FAILED'));
    });

    it.each(['abc', '0', '-1', '1.5', String(2 ** 53), '99999999999999999999', 'not-a-guid-at-all'])('invalid ID %s: 400', async (bad) => {
      expect((await get(owner.headers, bad).expect(400)).body).toEqual(errorBody(dashboardErrors.invalidId(bad), 'INVALID_DASHBOARD_ID'));
      expect((await put(owner.headers, bad, { Name: 'x' }).expect(400)).body).toEqual(errorBody(dashboardErrors.invalidId(bad), 'INVALID_DASHBOARD_ID'));
      expect((await del(owner.headers, bad).expect(400)).body).toEqual(errorBody(dashboardErrors.invalidId(bad, false), 'INVALID_DASHBOARD_ID'));
    });

    it('unknown IDs and GUIDs: 404; DELETE takes only the numeric ID', async () => {
      expect((await get(owner.headers, MAX_SAFE).expect(404)).body).toEqual(errorBody(dashboardErrors.notFound, 'DASHBOARD_NOT_FOUND'));
      expect((await put(owner.headers, 12345, { Name: 'x' }).expect(404)).body).toEqual(errorBody(dashboardErrors.notFound, 'DASHBOARD_NOT_FOUND'));
      expect((await del(owner.headers, 12345).expect(404)).body).toEqual(errorBody(dashboardErrors.notFound, 'DASHBOARD_NOT_FOUND'));
      await get(owner.headers, '44444444-2222-4333-8444-555555555555').expect(404);
      await del(owner.headers, (before as { GUID: string }).GUID).expect(400);
    });

    it('?admin=garbage on the list: 400; 1/0 and false read as booleans', async () => {
      expect((await request(t.http).get('/api/dashboards?admin=maybe').set(admin).expect(400)).body).toEqual(errorBody(requestErrors.notBoolean('admin'), 'VALIDATION_FAILED'));
      expect((await request(t.http).get('/api/dashboards?admin=true&admin=true').set(admin).expect(400)).body).toEqual(
        errorBody(requestErrors.notBoolean('admin'), 'VALIDATION_FAILED'),
      );
      const list = async (q: string) => ((await request(t.http).get(`/api/dashboards${q}`).set(admin).expect(200)).body as Array<{ ID: number }>).map((d) => d.ID).sort();
      expect(await list('?admin=1')).toEqual(await list('?admin=true'));
      expect(await list('?admin=0')).toEqual(await list(''));
      expect(await list('?admin=false')).toEqual(await list(''));
      expect(await list('?admin=1')).toContain(id);
      expect(await list('?admin=0')).not.toContain(id);
    });

    it('hostile strings are stored verbatim', async () => {
      const x = await make(owner.headers, { Name: "'; DROP TABLE dashboard; --", Labels: ['<script>alert(1)</script>'], Data: { s: '\u0000\u202E' } });
      expect((await get(owner.headers, x)).body).toEqual(
        expect.objectContaining({ Name: "'; DROP TABLE dashboard; --", Labels: ['<script>alert(1)</script>'], Data: { s: '\u0000\u202E' } }),
      );
    });

    it('a NUL character in Name is a 400', async () => {
      expect((await create(owner.headers, { Name: 'a\u0000b' }).expect(400)).body).toEqual(errorBody(requestErrors.invalidValue, 'INVALID_VALUE'));
    });
  });
});
