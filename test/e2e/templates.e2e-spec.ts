import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, requestErrors, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

/** The templates' refusals, word for word (src/common/errors/codes.ts). */
const templateErrors = {
  notFound: errorBody('Template not found', 'TEMPLATE_NOT_FOUND'),
  notYours: (verb: string) => errorBody(`Only the owner or an admin may ${verb} this template`, 'TEMPLATE_NOT_YOURS'),
};
const lacks = (cap: string) => errorBody(authErrors.tokenLacks(cap), 'API_TOKEN_LACKS_CAPABILITY');
const ALL = { Delete: true, Modify: true, Share: true };
const NONE = { Delete: false, Modify: false, Share: false };
const RANGE = { SearchStart: '2024-04-01T00:00:00Z', SearchEnd: '2024-04-02T00:00:00Z' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const variable = (name: string, more: object = {}) => ({ name, label: '', description: '', required: false, defaultValue: '', previewValue: null, ...more });

interface Template {
  ThingUUID: string;
  GUID: string;
  Can: typeof ALL;
  Contents: { query: string; variables: unknown[] };
}

describe('templates (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;
  const tag = `tpl${process.pid}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'towner' });
    member = await createUser(t.http, admin, { prefix: 'tmember' });
    stranger = await createUser(t.http, admin, { prefix: 'tstranger' });
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
    const lines = ['{"user":"ann","status":200}', '{"user":"bob","status":404}', '{"user":"ann","status":500}', '{"user":"cid","status":200}'];
    const r = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send(lines.map((l, i) => ({ TS: `2024-04-01T10:0${i}:00Z`, Tag: tag, SRC: '10.0.0.1', Data: b64(l) })));
    expect(r.status).toBe(200);
  });
  afterAll(() => t.close());

  const create = (h: Headers, body: object) => request(t.http).post('/api/templates').set(h).send(body);
  const get = (h: Headers, id: string, suffix = '') => request(t.http).get(`/api/templates/${id}${suffix}`).set(h);
  const put = (h: Headers, id: string, body: object, suffix = '') => request(t.http).put(`/api/templates/${id}${suffix}`).set(h).send(body);
  const del = (h: Headers, id: string) => request(t.http).delete(`/api/templates/${id}`).set(h);
  const list = (h: Headers, q = '') => request(t.http).get(`/api/templates${q}`).set(h);
  const fill = (h: Headers, id: string, Values?: unknown) => request(t.http).post(`/api/templates/${id}/fill`).set(h).send({ Values });
  const direct = (h: Headers, query: string) =>
    request(t.http)
      .post('/api/search/direct')
      .set(h)
      .send({ SearchString: query, Format: 'json', ...RANGE });
  let seq = 0;

  async function make(h: Headers, body: object = {}): Promise<Template> {
    const res = await create(h, { Name: `t${++seq}`, Contents: { query: `tag=${tag} grep %%X%%`, variables: [variable('%%X%%')] }, ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Template;
  }
  const ids = (r: request.Response) => (r.body as Template[]).map((x) => x.ThingUUID);

  describe('the API (product shapes)', () => {
    it('POST answers the WireUserTemplate; GET by ThingUUID or GUID; PUT the updated one; details; DELETE null', async () => {
      const contents = {
        query: `tag=${tag} json user | grep %%USER%%`,
        variables: [variable('%%USER%%', { label: 'User', description: 'who', required: true, defaultValue: 'ann', previewValue: 'bob' })],
      };
      const made = await create(owner.headers, { Name: 'by user', Description: 'd', Contents: contents }).expect(200);
      expect(made.body).toEqual({
        ThingUUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        GUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        UID: owner.uid,
        GIDs: null,
        Global: false,
        WriteAccess: { Global: false, GIDs: [] },
        Name: 'by user',
        Description: 'd',
        Labels: null,
        Updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        Can: ALL,
        Contents: contents,
      });
      const { ThingUUID, GUID } = made.body as Template;
      expect((await get(owner.headers, ThingUUID).expect(200)).body).toEqual(made.body);
      expect((await get(owner.headers, GUID.toUpperCase()).expect(200)).body).toEqual(made.body);
      const upd = await put(owner.headers, GUID, { Name: 'renamed', GIDs: [gid], Labels: ['l'] }).expect(200);
      expect(upd.body).toMatchObject({ ThingUUID, GUID, Name: 'renamed', GIDs: [gid], Labels: ['l'], Description: 'd', Contents: contents });
      const details = await get(owner.headers, ThingUUID, '/details').expect(200);
      expect(details.body).toEqual({ ...upd.body, Contents: undefined });
      expect(Object.keys(details.body)).not.toContain('Contents');
      const shared = await put(owner.headers, ThingUUID, { GIDs: [], Name: 'ignored', UID: owner.uid }, '/details').expect(200);
      expect(shared.body).toMatchObject({ GIDs: null, Name: 'renamed' });
      expect((await del(owner.headers, ThingUUID).expect(200)).body).toBeNull();
      expect((await get(owner.headers, ThingUUID).expect(404)).body).toEqual(templateErrors.notFound);
      expect((await get(owner.headers, GUID).expect(404)).body).toEqual(templateErrors.notFound);
    });

    it("takes the product client's bodies: a GUID of its own, optional variable fields, the older one-variable form", async () => {
      const guid = '6f1f0a3e-2b7c-4a55-9a3e-1d2c3b4a5f60';
      const r = await create(owner.headers, {
        GUID: guid,
        Name: 'kit',
        Contents: { query: 'tag=x grep __VAR__', variables: [{ label: 'Variable', name: '__VAR__', required: true }] },
      }).expect(200);
      expect(r.body).toMatchObject({ GUID: guid, Contents: { variables: [variable('__VAR__', { label: 'Variable', required: true })] } });
      const old = await create(owner.headers, {
        Name: 'old',
        Contents: { query: 'tag=x grep %%V%%', variable: '%%V%%', variableLabel: 'V', variableDescription: 'a v', required: false, testValue: 'abc' },
      }).expect(200);
      expect(old.body.Contents).toEqual({ query: 'tag=x grep %%V%%', variables: [variable('%%V%%', { label: 'V', description: 'a v', defaultValue: 'abc' })] });
    });

    it('owner, group member, stranger and admin (with and without admin mode): read, change, delete, list', async () => {
      const priv = await make(owner.headers);
      const shared = await make(owner.headers, { GIDs: [gid] });
      const global = await make(admin, { UID: owner.uid, Global: true });
      for (const x of [priv, shared, global]) await get(owner.headers, x.ThingUUID).expect(200);
      expect((await get(member.headers, priv.ThingUUID).expect(404)).body).toEqual(templateErrors.notFound);
      expect((await get(member.headers, shared.GUID).expect(200)).body.Can).toEqual(NONE);
      expect((await get(stranger.headers, shared.ThingUUID).expect(404)).body).toEqual(templateErrors.notFound);
      expect((await get(stranger.headers, global.ThingUUID).expect(200)).body.Can).toEqual(NONE);
      expect((await put(member.headers, shared.ThingUUID, { Name: 'z' }).expect(403)).body).toEqual(templateErrors.notYours('change'));
      expect((await put(member.headers, shared.ThingUUID, { GIDs: [] }, '/details').expect(403)).body).toEqual(templateErrors.notYours('change'));
      expect((await del(stranger.headers, global.ThingUUID).expect(403)).body).toEqual(templateErrors.notYours('delete'));
      expect((await del(stranger.headers, priv.ThingUUID).expect(404)).body).toEqual(templateErrors.notFound);
      expect((await get(admin, priv.ThingUUID).expect(200)).body.Can).toEqual(ALL);
      await put(admin, priv.ThingUUID, { Description: 'by admin' }).expect(200);
      expect(ids(await list(member.headers).expect(200))).toEqual(expect.arrayContaining([shared.ThingUUID, global.ThingUUID]));
      expect(ids(await list(member.headers))).not.toContain(priv.ThingUUID);
      expect(ids(await list(stranger.headers))).toContain(global.ThingUUID);
      expect(ids(await list(stranger.headers))).not.toContain(shared.ThingUUID);
      expect(ids(await list(stranger.headers, '?admin=true'))).not.toContain(shared.ThingUUID); // a non-admin's flag is ignored
      expect(ids(await list(admin))).not.toContain(priv.ThingUUID);
      expect(ids(await list(admin, '?admin=true').expect(200))).toEqual(expect.arrayContaining([priv.ThingUUID, shared.ThingUUID, global.ThingUUID]));
      expect((await list(admin, '?admin=maybe').expect(400)).body).toEqual(errorBody(requestErrors.notBoolean('admin'), 'VALIDATION_FAILED'));
      await del(admin, shared.ThingUUID).expect(200);
      await get(owner.headers, shared.ThingUUID).expect(404);
    });

    it("a GUID names the caller's own template first, then a group's, then a global one", async () => {
      const g = await make(admin, { Global: true, Contents: { query: 'global', variables: [] } });
      const byGuid = (h: Headers) => get(h, g.GUID).then((r) => r.body.Contents.query as string);
      expect(await byGuid(stranger.headers)).toBe('global');
      // sharing a GUID another owner held first is an admin's to do
      expect((await create(owner.headers, { GUID: g.GUID, GIDs: [gid], Name: 'x', Contents: { query: 'group' } }).expect(403)).body.Code).toBe('GUID_OF_ANOTHER_OWNER');
      await make(admin, { UID: owner.uid, GUID: g.GUID, GIDs: [gid], Contents: { query: 'group', variables: [] } });
      expect(await byGuid(member.headers)).toBe('group');
      await make(member.headers, { GUID: g.GUID, Contents: { query: 'own', variables: [] } });
      expect(await byGuid(member.headers)).toBe('own');
      expect(await byGuid(stranger.headers)).toBe('global');
    });

    it('only admins set Global or another owner; non-admins share only with their groups; a deleted group is forgotten', async () => {
      expect((await create(owner.headers, { Name: 'g', Contents: {}, Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await create(owner.headers, { Name: 'g', Contents: {}, UID: member.uid }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'),
      );
      const other = await createGroup(t.http, admin);
      expect((await create(owner.headers, { Name: 'g', Contents: {}, GIDs: [other] }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyOwnGroups(other), 'NOT_A_MEMBER_OF_GROUPS'),
      );
      const x = await make(owner.headers);
      expect((await put(owner.headers, x.ThingUUID, { Global: true }, '/details').expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      const y = await make(admin, { UID: owner.uid, GIDs: [other, gid] });
      await request(t.http).delete(`/api/groups/${other}`).set(admin).expect(200);
      expect((await get(owner.headers, y.ThingUUID).expect(200)).body.GIDs).toEqual([gid]);
    });

    it('API tokens: TemplateRead reads and fills, TemplateWrite writes', async () => {
      const x = await make(owner.headers);
      const none = await createToken(t.http, owner.headers, ['Search']);
      const ro = await createToken(t.http, owner.headers, ['TemplateRead']);
      const rw = await createToken(t.http, owner.headers, ['TemplateRead', 'TemplateWrite']);
      expect((await list(none.headers).expect(403)).body).toEqual(lacks('TemplateRead'));
      expect((await get(none.headers, x.ThingUUID).expect(403)).body).toEqual(lacks('TemplateRead'));
      expect((await get(none.headers, x.ThingUUID, '/details').expect(403)).body).toEqual(lacks('TemplateRead'));
      expect((await fill(none.headers, x.ThingUUID, { '%%X%%': 'a' }).expect(403)).body).toEqual(lacks('TemplateRead'));
      await get(ro.headers, x.ThingUUID).expect(200);
      await list(ro.headers).expect(200);
      await fill(ro.headers, x.ThingUUID, { '%%X%%': 'a' }).expect(200);
      expect((await create(ro.headers, { Name: 'n', Contents: {} }).expect(403)).body).toEqual(lacks('TemplateWrite'));
      expect((await put(ro.headers, x.ThingUUID, { Name: 'n' }).expect(403)).body).toEqual(lacks('TemplateWrite'));
      expect((await put(ro.headers, x.ThingUUID, { GIDs: [] }, '/details').expect(403)).body).toEqual(lacks('TemplateWrite'));
      expect((await del(ro.headers, x.ThingUUID).expect(403)).body).toEqual(lacks('TemplateWrite'));
      await put(rw.headers, x.ThingUUID, { Name: 'by token' }).expect(200);
      await del(rw.headers, x.ThingUUID).expect(200);
    });

    it('hostile input answers 4xx with {Error, Code}, never 5xx', async () => {
      const x = await make(owner.headers);
      const many = Array.from({ length: 65 }, (_, i) => variable(`%%V${i}%%`));
      const cases: Array<[request.Test, number, string]> = [
        [create(owner.headers, { Name: 'n', Contents: 'foo' }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: [] }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n' }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 5 } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'x'.repeat(65537) } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: {} } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [7] } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [{ name: 'has space' }] } }), 400, 'TEMPLATE_VARIABLE_NAME_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [{ name: '' }] } }), 400, 'TEMPLATE_VARIABLE_NAME_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [{ name: 'x'.repeat(129) }] } }), 400, 'TEMPLATE_VARIABLE_NAME_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [{ name: 7 }] } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [{ name: '%%A%%', required: 'yes' }] } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [{ name: '%%A%%', label: 'x'.repeat(4097) }] } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: [{ name: '%%A%%' }, { name: '%%A%%' }] } }), 400, 'TEMPLATE_VARIABLE_DUPLICATE'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'q', variables: many } }), 400, 'TEMPLATE_TOO_MANY_VARIABLES'],
        [create(owner.headers, { Name: 'n', GUID: 'nope', Contents: {} }), 400, 'INVALID_GUID'],
        [create(owner.headers, { Name: 'x'.repeat(257), Contents: {} }), 400, 'VALIDATION_FAILED'],
        [create(owner.headers, { Name: 'n\u0000', Contents: { query: 'a\u0000' } }), 400, 'INVALID_VALUE'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'a', variables: [{ name: '%%A%%', label: 'a\u0000' }] } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [create(owner.headers, { Name: 'n', Contents: { query: 'a', variables: [{ name: '%%\u0000%%' }] } }), 400, 'TEMPLATE_VARIABLE_NAME_INVALID'],
        [put(owner.headers, x.ThingUUID, { Contents: { variables: 'x' } }), 400, 'TEMPLATE_CONTENTS_INVALID'],
        [get(owner.headers, 'not-a-uuid'), 400, 'INVALID_UUID'],
        [fill(owner.headers, x.ThingUUID, 'x'), 400, 'TEMPLATE_VALUES_INVALID'],
        [fill(owner.headers, x.ThingUUID, { '%%X%%': 5 }), 400, 'TEMPLATE_VALUES_INVALID'],
        [fill(owner.headers, x.ThingUUID, { '%%Y%%': 'a' }), 400, 'TEMPLATE_VARIABLE_UNKNOWN'],
        [fill(owner.headers, x.ThingUUID, Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']))), 400, 'TEMPLATE_TOO_MANY_VARIABLES'],
        [fill(owner.headers, '00000000-0000-4000-8000-000000000000', {}), 404, 'TEMPLATE_NOT_FOUND'],
      ];
      for (const [req, status, code] of cases) {
        const r = await req;
        expect([r.status, r.body.Code, typeof r.body.Error, r.req.path]).toEqual([status, code, 'string', r.req.path]);
      }
    });
  });

  describe('running a template', () => {
    it('a template with values gives the same answer as the same query written out by hand', async () => {
      const tpl = await make(owner.headers, {
        Contents: {
          query: `tag=%%TAG%% json user status | %%FILTER%% | count by %%BY%% | table %%BY%% count`,
          variables: [variable('%%TAG%%', { required: true }), variable('%%FILTER%%', { defaultValue: 'grep ann' }), variable('%%BY%%', { defaultValue: 'status' })],
        },
      });
      const table: Array<[Record<string, string>, string]> = [
        [{ '%%TAG%%': tag }, `tag=${tag} json user status | grep ann | count by status | table status count`],
        [{ '%%TAG%%': tag, '%%BY%%': 'user', '%%FILTER%%': 'grep 200' }, `tag=${tag} json user status | grep 200 | count by user | table user count`],
        [{ '%%TAG%%': tag, '%%FILTER%%': 'grep -v cid', '%%BY%%': 'user' }, `tag=${tag} json user status | grep -v cid | count by user | table user count`],
      ];
      for (const [values, byHand] of table) {
        const filled = await fill(owner.headers, tpl.ThingUUID, values).expect(200);
        expect(filled.body).toEqual({ Query: byHand });
        const a = await direct(owner.headers, byHand).expect(200);
        const b = await direct(owner.headers, filled.body.Query).expect(200);
        expect(b.body).toEqual(a.body);
        expect(JSON.stringify(a.body)).toMatch(/ann|200/);
      }
      expect((await fill(owner.headers, tpl.ThingUUID, {}).expect(400)).body).toEqual(
        errorBody('The template variable %%TAG%% is required: give it a value', 'TEMPLATE_VARIABLE_REQUIRED'),
      );
    });

    it("a template reads nothing its user could not: a shared template that uses its owner's private macro is no use to a member", async () => {
      const name = `TPLPRIV${process.pid}`;
      await request(t.http)
        .post('/api/macros')
        .set(owner.headers)
        .send({ Name: name, Expansion: `tag=${tag}` })
        .expect(200);
      const tpl = await make(owner.headers, { GIDs: [gid], Contents: { query: `$${name} grep %%X%% | count`, variables: [variable('%%X%%')] } });
      const own = await fill(owner.headers, tpl.GUID, { '%%X%%': 'ann' }).expect(200);
      await direct(owner.headers, own.body.Query).expect(200);
      const theirs = await fill(member.headers, tpl.GUID, { '%%X%%': 'ann' }).expect(200);
      expect((await direct(member.headers, theirs.body.Query).expect(400)).body).toEqual(errorBody(`Unknown macro $${name}`, 'MACRO_UNKNOWN'));
      expect((await fill(stranger.headers, tpl.GUID, {}).expect(404)).body).toEqual(templateErrors.notFound);
    });
  });
});
