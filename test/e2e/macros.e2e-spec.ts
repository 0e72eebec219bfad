import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

/** The macros' refusals, word for word (src/common/errors/codes.ts). */
const macroErrors = {
  notFound: errorBody('Macro not found', 'MACRO_NOT_FOUND'),
  notYours: (verb: string) => errorBody(`Only the owner or an admin may ${verb} this macro`, 'MACRO_NOT_YOURS'),
  listNotYours: errorBody('Only admins may list the macros of another user or of a group they are not in', 'MACRO_LIST_NOT_YOURS'),
};
const lacks = (cap: string) => errorBody(authErrors.tokenLacks(cap), 'API_TOKEN_LACKS_CAPABILITY');
const ALL = { Delete: true, Modify: true, Share: true };
const NONE = { Delete: false, Modify: false, Share: false };
const RANGE = { SearchStart: '2024-04-01T00:00:00Z', SearchEnd: '2024-04-02T00:00:00Z' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('macros (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;
  const tag = `mac${process.pid}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'mowner' });
    member = await createUser(t.http, admin, { prefix: 'mmember' });
    stranger = await createUser(t.http, admin, { prefix: 'mstranger' });
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

  const create = (h: Headers, body: object) => request(t.http).post('/api/macros').set(h).send(body);
  const get = (h: Headers, id: number, q = '') => request(t.http).get(`/api/macros/${id}${q}`).set(h);
  const put = (h: Headers, id: number, body: object) => request(t.http).put(`/api/macros/${id}`).set(h).send(body);
  const del = (h: Headers, id: number) => request(t.http).delete(`/api/macros/${id}`).set(h);
  const list = (h: Headers, path = '/api/macros') => request(t.http).get(path).set(h);
  const parse = (h: Headers, query: string) => request(t.http).post('/api/parse').set(h).send({ SearchString: query });
  const direct = (h: Headers, query: string) =>
    request(t.http)
      .post('/api/search/direct')
      .set(h)
      .send({ SearchString: query, Format: 'json', ...RANGE });
  let seq = 0;
  const uniq = (base: string) => `${base}${++seq}`;

  async function make(h: Headers, body: object): Promise<number> {
    const res = await create(h, { Name: uniq('M'), Expansion: 'grep x', ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    expect(typeof res.body).toBe('number');
    return res.body as number;
  }

  describe('the API (product shapes)', () => {
    it('POST answers the new ID; GET answers the SearchMacro; PUT the updated one; DELETE null', async () => {
      const name = uniq('FOO');
      const id = await make(owner.headers, { Name: name, Expansion: 'grep foo', Description: 'd' });
      const got = await get(owner.headers, id).expect(200);
      expect(got.body).toEqual({
        ID: id,
        UID: owner.uid,
        GIDs: null,
        Global: false,
        WriteAccess: { Global: false, GIDs: [] },
        Name: name,
        Description: 'd',
        Expansion: 'grep foo',
        Labels: null,
        LastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        Synced: true,
        Can: ALL,
      });
      const upd = await put(owner.headers, id, { Expansion: 'grep bar', GIDs: [gid], Labels: ['l'] }).expect(200);
      expect(upd.body).toMatchObject({ ID: id, Name: name, Expansion: 'grep bar', GIDs: [gid], Labels: ['l'], Description: 'd' });
      expect((await del(owner.headers, id).expect(200)).body).toBeNull();
      expect((await get(owner.headers, id).expect(404)).body).toEqual(macroErrors.notFound);
    });

    it('names are upper-case letters, digits, _ and -; one name per owner', async () => {
      for (const Name of ['foo', '$FOO', 'FOO BAR', '', '-X', 'Ü']) {
        const r = await create(owner.headers, { Name, Expansion: 'x' }).expect(400);
        expect(r.body.Code).toBe('MACRO_NAME_INVALID');
      }
      const name = uniq('DUP');
      await make(owner.headers, { Name: name });
      expect((await create(owner.headers, { Name: name, Expansion: 'y' }).expect(409)).body).toEqual(errorBody(`The owner already has a macro named ${name}`, 'MACRO_NAME_TAKEN'));
      await make(member.headers, { Name: name }); // another owner may
    });

    it('owner, group member, stranger and admin: read, change, delete', async () => {
      const priv = await make(owner.headers, {});
      const shared = await make(owner.headers, { GIDs: [gid] });
      const global = await make(admin, { UID: owner.uid, Global: true });
      for (const id of [priv, shared, global]) await get(owner.headers, id).expect(200);
      expect((await get(member.headers, priv).expect(404)).body).toEqual(macroErrors.notFound);
      expect((await get(member.headers, shared).expect(200)).body.Can).toEqual(NONE);
      expect((await get(stranger.headers, shared).expect(404)).body).toEqual(macroErrors.notFound);
      expect((await get(stranger.headers, global).expect(200)).body.Can).toEqual(NONE);
      expect((await put(member.headers, shared, { Expansion: 'z' }).expect(403)).body).toEqual(macroErrors.notYours('change'));
      expect((await del(stranger.headers, global).expect(403)).body).toEqual(macroErrors.notYours('delete'));
      expect((await get(admin, priv).expect(200)).body.Can).toEqual(ALL);
      await put(admin, priv, { Expansion: 'grep admin' }).expect(200);
      // listings
      const ids = (r: request.Response) => (r.body as Array<{ ID: number }>).map((m) => m.ID);
      expect(ids(await list(member.headers).expect(200))).toEqual(expect.arrayContaining([shared, global]));
      expect(ids(await list(member.headers))).not.toContain(priv);
      expect(ids(await list(stranger.headers))).toEqual(expect.arrayContaining([global]));
      expect(ids(await list(stranger.headers))).not.toContain(shared);
      expect(ids(await list(admin))).not.toContain(priv);
      expect(ids(await list(admin, '/api/macros?admin=true'))).toEqual(expect.arrayContaining([priv, shared, global]));
      expect(ids(await list(admin, '/api/macros/all').expect(200))).toEqual(expect.arrayContaining([priv, shared, global]));
      expect((await list(owner.headers, '/api/macros/all').expect(403)).body).toEqual(errorBody(authErrors.adminOnly, 'ADMIN_ONLY'));
      expect(ids(await list(owner.headers, `/api/users/${owner.uid}/macros`).expect(200))).toEqual(expect.arrayContaining([priv, shared, global]));
      expect((await list(member.headers, `/api/users/${owner.uid}/macros`).expect(403)).body).toEqual(macroErrors.listNotYours);
      expect(ids(await list(admin, `/api/users/${owner.uid}/macros`).expect(200))).toContain(priv);
      expect(ids(await list(member.headers, `/api/groups/${gid}/macros`).expect(200))).toEqual(
        [shared].concat(ids(await list(admin, `/api/groups/${gid}/macros`)).filter((i) => i !== shared)),
      );
      expect((await list(stranger.headers, `/api/groups/${gid}/macros`).expect(403)).body).toEqual(macroErrors.listNotYours);
      await del(admin, shared).expect(200);
    });

    it('only admins set Global or another owner; non-admins share only with their groups', async () => {
      expect((await create(owner.headers, { Name: uniq('G'), Expansion: 'x', Global: true }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'),
      );
      expect((await create(owner.headers, { Name: uniq('G'), Expansion: 'x', UID: member.uid }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'),
      );
      const other = await createGroup(t.http, admin);
      expect((await create(owner.headers, { Name: uniq('G'), Expansion: 'x', GIDs: [other] }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyOwnGroups(other), 'NOT_A_MEMBER_OF_GROUPS'),
      );
      const id = await make(owner.headers, {});
      expect((await put(owner.headers, id, { Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
    });

    it('API tokens: MacroRead reads, MacroWrite writes', async () => {
      const id = await make(owner.headers, {});
      const none = await createToken(t.http, owner.headers, ['Search']);
      const ro = await createToken(t.http, owner.headers, ['MacroRead']);
      const rw = await createToken(t.http, owner.headers, ['MacroRead', 'MacroWrite']);
      expect((await list(none.headers).expect(403)).body).toEqual(lacks('MacroRead'));
      expect((await get(none.headers, id).expect(403)).body).toEqual(lacks('MacroRead'));
      await get(ro.headers, id).expect(200);
      expect((await create(ro.headers, { Name: uniq('T'), Expansion: 'x' }).expect(403)).body).toEqual(lacks('MacroWrite'));
      expect((await put(ro.headers, id, { Expansion: 'x' }).expect(403)).body).toEqual(lacks('MacroWrite'));
      expect((await del(ro.headers, id).expect(403)).body).toEqual(lacks('MacroWrite'));
      await put(rw.headers, id, { Expansion: 'grep y' }).expect(200);
      await del(rw.headers, id).expect(200);
    });
  });

  describe('expansion', () => {
    let src: string;
    let jsonf: string;
    let cnt: string;

    beforeAll(async () => {
      src = uniq('SRC');
      jsonf = uniq('JSONF');
      cnt = uniq('CNT');
      await make(owner.headers, { Name: src, Expansion: `tag=${tag}` });
      await make(owner.headers, { Name: jsonf, Expansion: `json %%1%% %%2%%` });
      await make(owner.headers, { Name: cnt, Expansion: `$${jsonf}(user, status) | count by %%1%%` });
    });

    it('a direct search with macros answers what the query written out by hand answers', async () => {
      const byHand = `tag=${tag} json user status | count by user | table user count`;
      const withMacros = `$${src} $${cnt}(user) | table user count`;
      const a = await direct(owner.headers, byHand).expect(200);
      const b = await direct(owner.headers, withMacros).expect(200);
      expect(b.body).toEqual(a.body);
      expect(JSON.stringify(a.body)).toContain('ann');
    });

    it('POST /api/parse describes the expanded query; RawQuery is what the user wrote', async () => {
      const q = `$${src} $${jsonf}(user, status) | table`;
      const r = await parse(owner.headers, q).expect(200);
      expect(r.body).toMatchObject({ GoodQuery: true, RawQuery: q, ParsedQuery: `tag=${tag} json user status | table`, Tags: [tag] });
      const handWritten = await parse(owner.headers, `tag=${tag} json user status | table`).expect(200);
      expect({ ...r.body, RawQuery: '' }).toEqual({ ...handWritten.body, RawQuery: '' });
    });

    it("a searchctrl launch shows the expansion in EffectiveQuery and keeps the user's text in UserQuery", async () => {
      const q = `$${src} $${jsonf}(user, status) | table user status`;
      const r = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(owner.headers)
        .send({ SearchString: q, ...RANGE })
        .expect(200);
      expect(r.body.Info).toMatchObject({ UserQuery: q, EffectiveQuery: `tag=${tag} json user status | table user status` });
    });

    it("resolution: the caller's own macro, then a group's, then a global one; a private macro of another user is unknown", async () => {
      const name = uniq('RES');
      await make(admin, { Name: name, Expansion: 'grep global', Global: true });
      const viaGlobal = await parse(stranger.headers, `tag=x $${name}`).expect(200);
      expect(viaGlobal.body.ParsedQuery).toBe('tag=x grep global');
      await make(owner.headers, { Name: name, Expansion: 'grep group', GIDs: [gid] });
      expect((await parse(member.headers, `tag=x $${name}`)).body.ParsedQuery).toBe('tag=x grep group');
      await make(member.headers, { Name: name, Expansion: 'grep own' });
      expect((await parse(member.headers, `tag=x $${name}`)).body.ParsedQuery).toBe('tag=x grep own');
      const priv = uniq('PRIV');
      await make(owner.headers, { Name: priv, Expansion: 'grep secret' });
      expect((await parse(stranger.headers, `tag=x $${priv}`).expect(400)).body).toEqual(errorBody(`Unknown macro $${priv}`, 'MACRO_UNKNOWN'));
      // an admin's search does not reach other users' private macros either
      expect((await parse(admin, `tag=x $${priv}`).expect(400)).body.Code).toBe('MACRO_UNKNOWN');
    });

    it('a token expands macros only with MacroRead', async () => {
      const search = await createToken(t.http, owner.headers, ['Search']);
      const both = await createToken(t.http, owner.headers, ['Search', 'MacroRead']);
      expect((await direct(search.headers, `$${src} count`).expect(403)).body).toEqual(lacks('MacroRead'));
      await direct(both.headers, `$${src} count`).expect(200);
      await direct(search.headers, `tag=${tag} count`).expect(200); // no macro, no capability needed
    });

    it('a parse error inside an expansion names the macro and points at the call in the user text', async () => {
      const bad = uniq('BAD');
      await make(owner.headers, { Name: bad, Expansion: 'nosuchmodule x' });
      const q = `$${src} json user | $${bad} | table`;
      const p = await parse(owner.headers, q).expect(200);
      const at = q.indexOf(`$${bad}`);
      const message = `ModuleError: nosuchmodule is not a valid module (in the expansion of $${bad}, at offset ${at} of the query: $${bad})`;
      expect(p.body).toMatchObject({ GoodQuery: false, ModuleIndex: 1, RawQuery: q, ParseError: message });
      expect((await direct(owner.headers, q).expect(400)).body).toEqual(errorBody(message, 'QUERY_INVALID'));
      const l = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(owner.headers)
        .send({ SearchString: q, ...RANGE })
        .expect(400);
      expect(l.body).toEqual(errorBody(message, 'QUERY_INVALID'));
    });

    it('hostile input answers 400 fast: a loop, a huge expansion, deep nesting, 10,000 arguments', async () => {
      const a = uniq('LA');
      const b = uniq('LB');
      await make(owner.headers, { Name: a, Expansion: `grep $${b}` });
      await make(owner.headers, { Name: b, Expansion: `grep $${a}` });
      const big = uniq('BIG');
      const leaf = uniq('LEAF');
      await make(owner.headers, { Name: leaf, Expansion: `grep ${'x'.repeat(30000)}` });
      await make(owner.headers, { Name: big, Expansion: `$${leaf} | $${leaf} | $${leaf}` });
      const deep: string[] = Array.from({ length: 20 }, () => uniq('D'));
      for (let i = 0; i < deep.length; i++) await make(owner.headers, { Name: deep[i], Expansion: i === deep.length - 1 ? 'grep x' : `$${deep[i + 1]}` });
      const cases: Array<[string, string]> = [
        [`tag=x $${a}`, 'MACRO_LOOP'],
        [`tag=x $${big}`, 'MACRO_EXPANSION_TOO_LARGE'],
        [`tag=x $${deep[0]}`, 'MACRO_TOO_DEEP'],
        [`tag=x $${jsonf}(${Array.from({ length: 10_000 }, (_, i) => `a${i}`).join(',')})`, 'MACRO_TOO_MANY_ARGUMENTS'],
        [`tag=x $${jsonf}(a)`, 'MACRO_ARGUMENT_COUNT'],
        [`tag=x $NOSUCHMACRO${process.pid}`, 'MACRO_UNKNOWN'],
      ];
      for (const [q, code] of cases) {
        const started = Date.now();
        const p = await parse(owner.headers, q);
        expect([p.status, p.body.Code]).toEqual([400, code]);
        const d = await direct(owner.headers, q);
        expect([d.status, d.body.Code]).toEqual([400, code]);
        expect(Date.now() - started).toBeLessThan(3000);
      }
      expect((await parse(owner.headers, `tag=x $${a}`)).body.Error).toBe(`Macro loop: $${a} -> $${b} -> $${a}`);
    });
  });
});
