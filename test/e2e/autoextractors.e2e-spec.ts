import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

/** The autoextractors' refusals, word for word (src/common/errors/codes.ts). */
const axErrors = {
  notFound: errorBody('Autoextractor not found', 'AUTOEXTRACTOR_NOT_FOUND'),
  notYours: (verb: string) => errorBody(`Only the owner or an admin may ${verb} this autoextractor`, 'AUTOEXTRACTOR_NOT_YOURS'),
  tagTaken: (tag: string) => errorBody(`The owner already has an autoextractor for tag ${tag}: only one per tag (change that one)`, 'AUTOEXTRACTOR_TAG_TAKEN'),
};
const lacks = (cap: string) => errorBody(authErrors.tokenLacks(cap), 'API_TOKEN_LACKS_CAPABILITY');
const ALL = { Delete: true, Modify: true, Share: true };
const NONE = { Delete: false, Modify: false, Share: false };
const RANGE = { SearchStart: '2024-04-01T00:00:00Z', SearchEnd: '2024-04-02T00:00:00Z' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const APACHE = String.raw`^(?P<ip>\S+) (?P<method>\S+) (?P<url>\S+) (?P<status>\d+)$`;

describe('autoextractors (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;
  const pid = process.pid;
  const jsonTag = `axj${pid}`;
  const webTag = `axw${pid}`;
  const csvTag = `axc${pid}`;
  let seq = 0;
  /** A fresh tag name (definitions are one per tag per owner). */
  const uniqTag = () => `axt${pid}x${++seq}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'axowner' });
    member = await createUser(t.http, admin, { prefix: 'axmember' });
    stranger = await createUser(t.http, admin, { prefix: 'axstranger' });
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
    const entries = [
      ...['{"user":"ann","status":200}', '{"user":"bob","status":404}', '{"user":"ann","status":500}', '{"user":"cid","status":200}'].map((d) => [jsonTag, d]),
      ...['10.0.0.1 GET /a 200', '10.0.0.2 POST /login 500', '10.0.0.1 GET /b 404', 'garbage'].map((d) => [webTag, d]),
      ...['ann,200,/a', 'bob,500,/b'].map((d) => [csvTag, d]),
    ];
    const r = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send(entries.map(([Tag, d], i) => ({ TS: `2024-04-01T10:${String(i).padStart(2, '0')}:00Z`, Tag, SRC: '10.0.0.1', Data: b64(d) })));
    expect(r.status).toBe(200);
  });
  afterAll(() => t.close());

  const create = (h: Headers, body: object) => request(t.http).post('/api/autoextractors').set(h).send(body);
  const get = (h: Headers, id: string, q = '') => request(t.http).get(`/api/autoextractors/${id}${q}`).set(h);
  const put = (h: Headers, id: string, body: object) => request(t.http).put(`/api/autoextractors/${id}`).set(h).send(body);
  const putBody = (h: Headers, body: object) => request(t.http).put('/api/autoextractors').set(h).send(body);
  const del = (h: Headers, id: string) => request(t.http).delete(`/api/autoextractors/${id}`).set(h);
  const list = (h: Headers, q = '') => request(t.http).get(`/api/autoextractors${q}`).set(h);
  const test = (h: Headers, body: object) => request(t.http).post('/api/autoextractors/test').set(h).send(body);
  const upload = (h: Headers, text: string | Buffer, part = 'extraction') =>
    request(t.http)
      .post('/api/autoextractors/upload')
      .set(h)
      .attach(part, Buffer.isBuffer(text) ? text : Buffer.from(text), 'ax.toml');
  const parse = (h: Headers, query: string) => request(t.http).post('/api/parse').set(h).send({ SearchString: query });
  const direct = (h: Headers, query: string) =>
    request(t.http)
      .post('/api/search/direct')
      .set(h)
      .send({ SearchString: query, Format: 'json', ...RANGE });

  async function make(h: Headers, body: object): Promise<string> {
    const res = await create(h, { Tag: uniqTag(), Module: 'json', Params: 'user status', ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body).toMatch(UUID);
    return res.body as string;
  }

  describe('the API (product shapes)', () => {
    it('GET engines lists the extraction modules', async () => {
      const r = await request(t.http).get('/api/autoextractors/engines').set(owner.headers).expect(200);
      expect(r.body).toEqual(['csv', 'fields', 'regex', 'json', 'kv', 'syslog', 'cef', 'xml']);
    });

    it('POST answers the new UUID; GET the AXDefinition; PUT /{uuid} and PUT with the UUID in the body the updated one; DELETE null', async () => {
      const tag = uniqTag();
      const id = await make(owner.headers, { Tag: tag, Name: 'n', Desc: 'd', Module: 'regex', Params: APACHE, Labels: ['web'] });
      const got = await get(owner.headers, id).expect(200);
      expect(got.body).toEqual({
        UUID: id,
        UID: owner.uid,
        GIDs: null,
        Global: false,
        Tag: tag,
        Tags: [tag],
        Name: 'n',
        Desc: 'd',
        Module: 'regex',
        Params: APACHE,
        Args: '',
        Labels: ['web'],
        LastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        Can: ALL,
      });
      const upd = await put(owner.headers, id, { Params: String.raw`(?P<ip>\S+)`, GIDs: [gid] }).expect(200);
      expect(upd.body).toMatchObject({ UUID: id, Params: String.raw`(?P<ip>\S+)`, GIDs: [gid], Name: 'n', Desc: 'd' });
      // the product's PUT: the whole definition as returned, with a change
      const again = await putBody(owner.headers, { ...upd.body, Desc: 'd2' }).expect(200);
      expect(again.body).toMatchObject({ UUID: id, Desc: 'd2', Tags: [tag] });
      expect((await putBody(owner.headers, { Desc: 'x' }).expect(400)).body).toEqual(errorBody('The body names no autoextractor: give its UUID', 'AUTOEXTRACTOR_UUID_REQUIRED'));
      expect((await del(owner.headers, id).expect(200)).body).toBeNull();
      expect((await get(owner.headers, id).expect(404)).body).toEqual(axErrors.notFound);
      expect((await get(owner.headers, 'nope').expect(400)).body.Code).toBe('INVALID_UUID');
    });

    it('Tag and Tags together; one definition per tag per owner (another owner may)', async () => {
      const [a, b, c] = [uniqTag(), uniqTag(), uniqTag()];
      const id = await make(owner.headers, { Tag: a, Tags: [b, a] });
      expect((await get(owner.headers, id)).body).toMatchObject({ Tag: a, Tags: [a, b] });
      expect((await create(owner.headers, { Tag: c, Tags: [b], Module: 'json', Params: 'x' }).expect(409)).body).toEqual(axErrors.tagTaken(b));
      await make(member.headers, { Tag: b });
      const other = await make(owner.headers, { Tag: c });
      expect((await put(owner.headers, other, { Tags: [a] }).expect(409)).body).toEqual(axErrors.tagTaken(a));
      expect((await create(owner.headers, { Module: 'json', Params: 'x' }).expect(400)).body).toEqual(errorBody('extraction tag assignment missing', 'AUTOEXTRACTOR_INVALID'));
      expect((await create(owner.headers, { Tag: 'a b', Module: 'json', Params: 'x' }).expect(400)).body.Code).toBe('AUTOEXTRACTOR_INVALID');
    });

    it("a definition the engine refuses is a 400 in the engine's words", async () => {
      const cases: Array<[object, string]> = [
        [{ Module: 'asdf', Params: 'a' }, 'asdf: asdf is not a supported engine (engines: csv, fields, regex, json, kv, syslog, cef, xml)'],
        [{ Module: 'regex', Params: '(?P<a>[a-' }, 'regex: invalid regular expression: missing closing ]: [a- at offset 6 of the expression'],
        [{ Module: 'regex', Params: '(a)' }, 'regex: regular expression has no named capture groups (?P<name>...)'],
        [{ Module: 'json', Params: 'a', Args: '-e x' }, 'json: the -e flag is not allowed: an autoextractor always reads the whole entry'],
        [{ Module: 'fields', Params: 'a', Args: '-z' }, 'fields: unknown flag -z'],
        [{ Module: 'csv', Params: '' }, 'csv: extraction parameters missing'],
      ];
      for (const [body, message] of cases) {
        const r = await create(owner.headers, { Tag: uniqTag(), ...body });
        expect([r.status, r.body.Code]).toEqual([400, 'AUTOEXTRACTOR_INVALID']);
        expect(r.body.Error).toBe(message);
      }
    });

    it('owner, group member, stranger and admin: read, change, delete, list', async () => {
      const priv = await make(owner.headers, {});
      const shared = await make(owner.headers, { GIDs: [gid] });
      const global = await make(admin, { UID: owner.uid, Global: true });
      for (const id of [priv, shared, global]) await get(owner.headers, id).expect(200);
      expect((await get(member.headers, priv).expect(404)).body).toEqual(axErrors.notFound);
      expect((await get(member.headers, shared).expect(200)).body.Can).toEqual(NONE);
      expect((await get(stranger.headers, shared).expect(404)).body).toEqual(axErrors.notFound);
      expect((await get(stranger.headers, global).expect(200)).body.Can).toEqual(NONE);
      expect((await put(member.headers, shared, { Desc: 'z' }).expect(403)).body).toEqual(axErrors.notYours('change'));
      expect((await del(stranger.headers, global).expect(403)).body).toEqual(axErrors.notYours('delete'));
      expect((await del(stranger.headers, priv).expect(404)).body).toEqual(axErrors.notFound);
      expect((await get(admin, priv).expect(200)).body.Can).toEqual(ALL);
      await put(admin, priv, { Desc: 'by admin' }).expect(200);
      const ids = (r: request.Response) => (r.body as Array<{ UUID: string }>).map((m) => m.UUID);
      expect(ids(await list(member.headers).expect(200))).toEqual(expect.arrayContaining([shared, global]));
      expect(ids(await list(member.headers))).not.toContain(priv);
      expect(ids(await list(stranger.headers))).toContain(global);
      expect(ids(await list(stranger.headers))).not.toContain(shared);
      expect(ids(await list(admin))).not.toContain(priv);
      expect(ids(await list(admin, '?admin=true'))).toEqual(expect.arrayContaining([priv, shared, global]));
      await del(admin, shared).expect(200);
    });

    it('only admins set Global or another owner; non-admins share only with their groups', async () => {
      expect((await create(owner.headers, { Tag: uniqTag(), Module: 'json', Params: 'x', Global: true }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'),
      );
      expect((await create(owner.headers, { Tag: uniqTag(), Module: 'json', Params: 'x', UID: member.uid }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'),
      );
      const other = await createGroup(t.http, admin);
      expect((await create(owner.headers, { Tag: uniqTag(), Module: 'json', Params: 'x', GIDs: [other] }).expect(403)).body).toEqual(
        errorBody(sharingErrors.onlyOwnGroups(other), 'NOT_A_MEMBER_OF_GROUPS'),
      );
    });

    it('API tokens: ExtractorRead reads and tests, ExtractorWrite writes and uploads', async () => {
      const id = await make(owner.headers, {});
      const none = await createToken(t.http, owner.headers, ['Search']);
      const ro = await createToken(t.http, owner.headers, ['ExtractorRead']);
      const rw = await createToken(t.http, owner.headers, ['ExtractorRead', 'ExtractorWrite']);
      expect((await list(none.headers).expect(403)).body).toEqual(lacks('ExtractorRead'));
      expect((await get(none.headers, id).expect(403)).body).toEqual(lacks('ExtractorRead'));
      expect((await request(t.http).get('/api/autoextractors/engines').set(none.headers).expect(403)).body).toEqual(lacks('ExtractorRead'));
      await get(ro.headers, id).expect(200);
      await test(ro.headers, { Tag: uniqTag(), Module: 'json', Params: 'a' }).expect(200);
      expect((await create(ro.headers, { Tag: uniqTag(), Module: 'json', Params: 'x' }).expect(403)).body).toEqual(lacks('ExtractorWrite'));
      expect((await put(ro.headers, id, { Desc: 'x' }).expect(403)).body).toEqual(lacks('ExtractorWrite'));
      expect((await upload(ro.headers, `[[extraction]]\ntag='${uniqTag()}'\nmodule='json'\nparams='a'\n`).expect(403)).body).toEqual(lacks('ExtractorWrite'));
      expect((await del(ro.headers, id).expect(403)).body).toEqual(lacks('ExtractorWrite'));
      await put(rw.headers, id, { Desc: 'y' }).expect(200);
      await del(rw.headers, id).expect(200);
    });
  });

  describe('test, upload and download', () => {
    it('POST /test: TagExists, the fields, and what each sample line gives', async () => {
      const tag = uniqTag();
      const body = { Tag: tag, Module: 'regex', Params: APACHE, Sample: '10.0.0.9 GET /x 200\nnot a log line\n' };
      const r = await test(owner.headers, body).expect(200);
      expect(r.body).toEqual({
        TagExists: false,
        Error: '',
        Fields: ['ip', 'method', 'url', 'status'],
        Results: [
          { Data: '10.0.0.9 GET /x 200', Matched: true, Fields: { ip: '10.0.0.9', method: 'GET', url: '/x', status: '200' } },
          { Data: 'not a log line', Matched: false, Fields: {} },
        ],
      });
      const id = await make(owner.headers, { Tag: tag });
      expect((await test(owner.headers, body).expect(200)).body.TagExists).toBe(true);
      expect((await test(owner.headers, { ...body, UUID: id }).expect(200)).body.TagExists).toBe(false);
      expect((await test(member.headers, body).expect(200)).body.TagExists).toBe(false);
      const bad = await test(owner.headers, { ...body, Params: '(?P<x>' }).expect(400);
      expect(bad.body).toEqual({ Error: expect.stringMatching(/^regex: invalid regular expression/), Code: 'AUTOEXTRACTOR_INVALID' });
    });

    it("upload: the product's TOML (escapes, comments, several definitions); a re-upload replaces the caller's one for the tag; download gives it back", async () => {
      const [a, b] = [uniqTag(), uniqTag()];
      const file = [
        '# two extractions',
        '[[extraction]]',
        `\ttag="${a}"`,
        '\tname="apacheaccess"',
        '\tdesc="Apache access"',
        '\tmodule="regex"',
        '\targs="" #empty values can be omitted',
        `\tparams='${APACHE}'`,
        '',
        '[[extraction]]',
        `\ttag="${b}"`,
        '\tmodule="csv"',
        '\tparams="date, name, \\"a, b\\""',
      ].join('\n');
      const r = await upload(owner.headers, file).expect(200);
      expect(r.body.map((x: { Tag: string; Module: string; Params: string; Name: string }) => [x.Tag, x.Module, x.Params, x.Name])).toEqual([
        [a, 'regex', APACHE, 'apacheaccess'],
        [b, 'csv', 'date, name, "a, b"', ''],
      ]);
      const again = await upload(owner.headers, `[[extraction]]\n  tag = '${a}'\n  module = 'json'\n  params = 'user'\n`).expect(200);
      expect(again.body[0]).toMatchObject({ UUID: r.body[0].UUID, Module: 'json', Params: 'user' });
      const dl = await request(t.http).get(`/api/autoextractors/download?id=${r.body[0].UUID}&id=${r.body[1].UUID}`).set(owner.headers).expect(200);
      expect(dl.headers['content-type']).toMatch(/^application\/toml/);
      expect(dl.text).toContain(`tag = "${a}"`);
      // the download uploads again, unchanged, for another user
      const moved = await upload(member.headers, dl.text).expect(200);
      expect(moved.body.map((x: { Params: string; UID: number }) => [x.Params, x.UID])).toEqual([
        ['user', member.uid],
        ['date, name, "a, b"', member.uid],
      ]);
      expect((await request(t.http).get(`/api/autoextractors/download?id=${r.body[0].UUID}`).set(stranger.headers).expect(404)).body).toEqual(axErrors.notFound);
    });

    it('a bad file is a 400 naming the line or the definition, and writes nothing', async () => {
      const tag = uniqTag();
      const cases: Array<[string, string]> = [
        ['tag="x"\n', 'The extraction file is not valid: "tag" is outside every [[extraction]] table'],
        ['[[extraction]]\ntag="x\n', 'The extraction file is not valid: line 2, column 7: control characters are not allowed in strings'],
        ['[[extraction]]\nfoo="x"\n', 'The extraction file is not valid: [[extraction]] 1: unknown key "foo" (keys: tag, tags, name, desc, module, params, args)'],
        ['[[extraction]]\nparams="\\d"\n', 'The extraction file is not valid: line 2, column 10: unrecognised escape sequence'],
        ['[extraction]\ntag="x"\n', 'The extraction file is not valid: definitions are [[extraction]] tables (an array of tables), not [extraction]'],
        ['[[extraction]]\ntag=1\n', 'The extraction file is not valid: [[extraction]] 1: tag must be a string'],
        ['', 'The extraction file is not valid: it holds no [[extraction]]'],
      ];
      for (const [text, message] of cases) expect((await upload(owner.headers, text).expect(400)).body).toEqual(errorBody(message, 'AUTOEXTRACTOR_FILE_INVALID'));
      const twoBad = `[[extraction]]\ntag='${tag}'\nmodule='json'\nparams='a'\n[[extraction]]\nname='second'\ntag='${uniqTag()}'\nmodule='regex'\nparams='(?P<x>['\n`;
      const r = await upload(owner.headers, twoBad).expect(400);
      expect(r.body).toEqual({ Error: expect.stringMatching(/^definition 2 \(second\): regex: invalid regular expression/), Code: 'AUTOEXTRACTOR_INVALID' });
      const mine = (await list(owner.headers)).body as Array<{ Tag: string }>;
      expect(mine.map((x) => x.Tag)).not.toContain(tag);
      expect((await upload(owner.headers, 'x', 'file').expect(400)).body.Code).toBe('AUTOEXTRACTOR_FILE_PART_REQUIRED');
      expect((await upload(owner.headers, Buffer.from([0xff, 0xfe, 0x00])).expect(400)).body.Code).toBe('AUTOEXTRACTOR_FILE_INVALID');
    });

    it('a huge upload is a 413, never a 5xx', async () => {
      const huge = `[[extraction]]\ntag='x'\nmodule='json'\nparams='${'a '.repeat(600_000)}'\n`;
      const r = await upload(owner.headers, huge);
      expect([r.status, r.body.Code]).toEqual([413, 'FILE_TOO_LARGE']);
      const big = await create(owner.headers, { Tag: uniqTag(), Module: 'json', Params: 'a '.repeat(40_000) });
      expect([big.status, big.body.Code]).toEqual([400, 'VALIDATION_FAILED']);
    });
  });

  describe('ax in searches', () => {
    beforeAll(async () => {
      await make(owner.headers, { Tag: jsonTag, Module: 'json', Params: 'user status', GIDs: [gid] });
      await make(owner.headers, { Tag: webTag, Module: 'regex', Params: APACHE });
      await make(owner.headers, { Tag: csvTag, Module: 'csv', Params: 'user, status, url' });
    });

    it('a direct search with ax answers what the query written out with the module answers', async () => {
      const pairs: Array<[string, string]> = [
        [`tag=${jsonTag} ax | count by user | table user count`, `tag=${jsonTag} json user status | count by user | table user count`],
        [`tag=${jsonTag} ax status==500 user | table user status`, `tag=${jsonTag} json status==500 user | table user status`],
        [`tag=${webTag} ax method url | table method url`, `tag=${webTag} regex "${APACHE}" | table method url`],
        [`tag=${csvTag} ax | table user status url`, `tag=${csvTag} csv [0] as user [1] as status [2] as url | table user status url`],
      ];
      for (const [withAx, byHand] of pairs) {
        const a = await direct(owner.headers, byHand).expect(200);
        const b = await direct(owner.headers, withAx).expect(200);
        expect(b.body).toEqual(a.body);
        expect(JSON.stringify(a.body)).toMatch(/ann|GET/);
      }
    });

    it('one query over two tags extracts each through its own definition', async () => {
      const r = await direct(owner.headers, `tag=${jsonTag},${csvTag} ax user status=="500" | table user status`).expect(200);
      const byHand = await direct(owner.headers, `tag=${jsonTag} json user status=="500" | table user status`).expect(200);
      expect(JSON.stringify(r.body)).toContain('bob');
      expect(JSON.stringify(byHand.body)).not.toContain('bob');
    });

    it('POST /api/parse names the fields ax extracts; a query whose tags have no definition is a clear error', async () => {
      const p = await parse(owner.headers, `tag=${jsonTag} ax | table`).expect(200);
      expect(p.body.GoodQuery).toBe(true);
      expect(p.body.ModuleHints[0]).toMatchObject({ Name: 'ax', ProducedEVs: ['user', 'status'] });
      const none = await parse(owner.headers, `tag=nodef${pid} ax | table`).expect(200);
      expect(none.body).toMatchObject({ GoodQuery: false, ParseError: `ModuleError: ax: no autoextractor is defined for the tags of this query (nodef${pid})` });
      const d = await direct(owner.headers, `tag=nodef${pid} ax | table`).expect(400);
      expect(d.body).toEqual(errorBody(`ModuleError: ax: no autoextractor is defined for the tags of this query (nodef${pid})`, 'QUERY_INVALID'));
    });

    it("the definition used is the caller's own, then a group's, then a global one; another user's private one is not", async () => {
      // the member sees the owner's json definition through the group; the stranger sees none of them
      const viaGroup = await direct(member.headers, `tag=${jsonTag} ax user | count by user | table user count`).expect(200);
      expect(JSON.stringify(viaGroup.body)).toContain('ann');
      expect((await direct(stranger.headers, `tag=${jsonTag} ax user | table`).expect(400)).body.Code).toBe('QUERY_INVALID');
      expect((await direct(stranger.headers, `tag=${webTag} ax | table`).expect(400)).body.Code).toBe('QUERY_INVALID');
      await make(member.headers, { Tag: jsonTag, Module: 'json', Params: 'status as user' });
      const own = await direct(member.headers, `tag=${jsonTag} ax user | count by user | table user count`).expect(200);
      expect(JSON.stringify(own.body)).not.toContain('ann');
      expect(JSON.stringify(own.body)).toContain('404');
    });

    it('a token uses ax only with ExtractorRead', async () => {
      const search = await createToken(t.http, owner.headers, ['Search']);
      const both = await createToken(t.http, owner.headers, ['Search', 'ExtractorRead']);
      expect((await direct(search.headers, `tag=${jsonTag} ax | table`).expect(403)).body).toEqual(lacks('ExtractorRead'));
      await direct(both.headers, `tag=${jsonTag} ax | table`).expect(200);
      await direct(search.headers, `tag=${jsonTag} json user | table`).expect(200);
    });

    it('a searchctrl launch runs ax in the workers and keeps the query as written', async () => {
      const q = `tag=${webTag} ax status=="500" url | table url`;
      const r = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(owner.headers)
        .send({ SearchString: q, ...RANGE })
        .expect(200);
      expect(r.body.Info).toMatchObject({ UserQuery: q, EffectiveQuery: q });
    });

    it("a searchctrl launch's CSV download has every column a bare ax extracts, also those its first entry lacks", async () => {
      const tag = uniqTag();
      await make(owner.headers, { Tag: tag, Module: 'regex', Params: String.raw`^(?P<user>\w+)(?: (?P<code>\d+))?$` });
      const rows = ['bob 404', 'ann'].map((d, i) => ({ TS: `2024-04-01T11:0${i}:00Z`, Tag: tag, SRC: '10.0.0.1', Data: b64(d) }));
      await request(t.http).put('/api/ingest/json').set(admin).send(rows).expect(200);
      const l = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(owner.headers)
        .send({ SearchString: `tag=${tag} ax`, ...RANGE })
        .expect(200);
      const id = l.body.SearchID as string;
      for (let i = 0; i < 400; i++) {
        const st = await request(t.http).get(`/api/searchctrl/${id}/stats`).set(owner.headers).expect(200);
        if (st.body.Finished) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const csv = await request(t.http).get(`/api/searchctrl/${id}/download/csv`).set(owner.headers).expect(200);
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe('TIMESTAMP,TAG,SRC,DATA,user,code');
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',').slice(-2).join(' '))
          .sort(),
      ).toEqual(['ann ', 'bob 404']);
    });
  });
});
