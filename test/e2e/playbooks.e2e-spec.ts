import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, requestErrors, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

/** The playbooks' refusals, word for word (src/common/errors/codes.ts). */
const playbookErrors = {
  notFound: errorBody('Playbook not found', 'PLAYBOOK_NOT_FOUND'),
  notYours: (verb: string) => errorBody(`Only the owner or an admin may ${verb} this playbook`, 'PLAYBOOK_NOT_YOURS'),
  notBase64: (field: string) => errorBody(`${field} must be base64 (the standard alphabet, padded), as the product sends bytes`, 'PLAYBOOK_FIELD_NOT_BASE64'),
  nameRequired: errorBody('A playbook needs a Name (1-256 characters, not only spaces)', 'PLAYBOOK_NAME_REQUIRED'),
};
const lacks = (cap: string) => errorBody(authErrors.tokenLacks(cap), 'API_TOKEN_LACKS_CAPABILITY');
const ALL = { Delete: true, Modify: true, Share: true };
const NONE = { Delete: false, Modify: false, Share: false };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const text = (b: string) => Buffer.from(b, 'base64').toString('utf8');
const MAX = 4096;

describe('playbooks (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;

  beforeAll(async () => {
    t = await createTestApp({ maxPlaybookSize: MAX });
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'powner' });
    member = await createUser(t.http, admin, { prefix: 'pmember' });
    stranger = await createUser(t.http, admin, { prefix: 'pstranger' });
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
  });
  afterAll(() => t.close());

  const create = (h: Headers, body: unknown) =>
    request(t.http)
      .post('/api/playbooks')
      .set(h)
      .send(body as object);
  const get = (h: Headers, id: string) => request(t.http).get(`/api/playbooks/${id}`).set(h);
  const put = (h: Headers, id: string, body: unknown) =>
    request(t.http)
      .put(`/api/playbooks/${id}`)
      .set(h)
      .send(body as object);
  const del = (h: Headers, id: string) => request(t.http).delete(`/api/playbooks/${id}`).set(h);
  const list = (h: Headers, q = '') => request(t.http).get(`/api/playbooks${q}`).set(h);
  const uuids = (r: request.Response) => (r.body as Array<{ UUID: string }>).map((p) => p.UUID);
  let seq = 0;

  async function make(h: Headers, body: object = {}): Promise<string> {
    const res = await create(h, { Name: `pb ${++seq}`, Body: b64('# Hello'), ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body).toMatch(/^[0-9a-f-]{36}$/);
    return res.body as string;
  }

  describe('the API (product shapes)', () => {
    it('POST answers the new UUID; GET the Playbook with its Body (base64); PUT the updated one; DELETE null', async () => {
      const md = '# Title\n\nÜnïcode ✓\n\n```\ntag=x count\n```\n';
      const meta = b64(JSON.stringify({ dashboards: [], attachments: [] }));
      const id = await make(owner.headers, { Name: 'ssh syslog', Desc: 'd', Body: b64(md), Metadata: meta, Labels: ['syslog'], Author: { Name: 'Ann', URL: 'https://x.example' } });
      const got = await get(owner.headers, id).expect(200);
      expect(got.body).toEqual({
        UUID: id,
        GUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        UID: owner.uid,
        GIDs: null,
        Global: false,
        WriteAccess: { Global: false, GIDs: [] },
        Name: 'ssh syslog',
        Desc: 'd',
        Body: b64(md),
        Metadata: meta,
        Labels: ['syslog'],
        LastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        Author: { Name: 'Ann', Email: '', Company: '', URL: 'https://x.example' },
        Synced: true,
        Can: ALL,
      });
      expect(text(got.body.Body)).toBe(md);
      expect(got.body.GUID).not.toBe(id);
      const upd = await put(owner.headers, id, { Body: b64('# New'), GIDs: [gid], UUID: randomUUID(), Synced: false, LastUpdated: '2000-01-01T00:00:00Z' }).expect(200);
      expect(upd.body).toMatchObject({ UUID: id, Name: 'ssh syslog', Desc: 'd', Body: b64('# New'), GIDs: [gid], Labels: ['syslog'], Metadata: meta, Synced: true });
      expect(upd.body.LastUpdated > got.body.LastUpdated).toBe(true);
      // null clears Desc, Labels, Metadata and Author; keeps Name and Body
      const cleared = await put(owner.headers, id, { Name: null, Body: null, Desc: null, Labels: null, Metadata: null, Author: null, GIDs: null }).expect(200);
      expect(cleared.body).toMatchObject({ Name: 'ssh syslog', Body: b64('# New'), Desc: '', Labels: null, GIDs: null, Author: { Name: '', Email: '', Company: '', URL: '' } });
      expect(cleared.body).not.toHaveProperty('Metadata');
      expect((await del(owner.headers, id).expect(200)).body).toBeNull();
      expect((await get(owner.headers, id).expect(404)).body).toEqual(playbookErrors.notFound);
      expect((await del(owner.headers, id).expect(404)).body).toEqual(playbookErrors.notFound);
    });

    it('a playbook without Body answers none; listings leave every Body out, as the product does', async () => {
      const empty = await make(owner.headers, { Body: undefined });
      expect((await get(owner.headers, empty).expect(200)).body).not.toHaveProperty('Body');
      const full = await make(owner.headers, { Body: b64('x'.repeat(MAX)) });
      const rows = (await list(owner.headers).expect(200)).body as Array<Record<string, unknown>>;
      const row = rows.find((r) => r.UUID === full);
      expect(row).toMatchObject({ UUID: full, Name: expect.any(String), Can: ALL });
      expect(rows.every((r) => !('Body' in r))).toBe(true);
    });

    it("GET, PUT and DELETE address a playbook by UUID or GUID (own first, then a group's, then global)", async () => {
      const guid = randomUUID();
      const shared = await make(owner.headers, { GUID: guid, GIDs: [gid], Name: 'shared' });
      expect((await get(member.headers, guid).expect(200)).body).toMatchObject({ UUID: shared, GUID: guid, Name: 'shared', Can: NONE });
      const own = await make(member.headers, { GUID: guid.toUpperCase(), Name: 'mine' }); // a private copy reusing the GUID
      expect((await get(member.headers, guid).expect(200)).body).toMatchObject({ UUID: own, Name: 'mine', Can: ALL });
      expect((await get(member.headers, shared).expect(200)).body.Name).toBe('shared');
      expect((await get(stranger.headers, guid).expect(404)).body).toEqual(playbookErrors.notFound);
      await put(member.headers, guid, { Desc: 'via guid' }).expect(200);
      expect((await get(member.headers, own).expect(200)).body.Desc).toBe('via guid');
      expect((await create(member.headers, { Name: 'again', GUID: guid }).expect(409)).body).toEqual(
        errorBody(`The owner already has a playbook with GUID ${guid}`, 'PLAYBOOK_GUID_TAKEN'),
      );
      // the member may not share a copy of another owner's GUID
      expect((await put(member.headers, own, { GIDs: [gid] }).expect(403)).body).toEqual(errorBody(sharingErrors.reusedGuid, 'GUID_OF_ANOTHER_OWNER'));
      await del(member.headers, guid).expect(200);
      expect((await get(member.headers, guid).expect(200)).body.UUID).toBe(shared);
      expect((await get(owner.headers, 'not-a-uuid').expect(400)).body).toEqual(errorBody(requestErrors.invalidUuid('not-a-uuid'), 'INVALID_UUID'));
    });

    it('owner, group member, stranger and admin: read, change, delete; listings', async () => {
      const priv = await make(owner.headers);
      const shared = await make(owner.headers, { GIDs: [gid] });
      const global = await make(admin, { UID: owner.uid, Global: true });
      for (const id of [priv, shared, global]) expect((await get(owner.headers, id).expect(200)).body.Can).toEqual(ALL);
      expect((await get(member.headers, priv).expect(404)).body).toEqual(playbookErrors.notFound);
      expect((await get(member.headers, shared).expect(200)).body.Can).toEqual(NONE);
      expect((await get(stranger.headers, shared).expect(404)).body).toEqual(playbookErrors.notFound);
      expect((await get(stranger.headers, global).expect(200)).body).toMatchObject({ UID: owner.uid, Global: true, Can: NONE });
      expect((await put(member.headers, shared, { Body: b64('x') }).expect(403)).body).toEqual(playbookErrors.notYours('change'));
      expect((await del(member.headers, shared).expect(403)).body).toEqual(playbookErrors.notYours('delete'));
      expect((await del(stranger.headers, global).expect(403)).body).toEqual(playbookErrors.notYours('delete'));
      expect((await put(stranger.headers, priv, { Body: b64('x') }).expect(404)).body).toEqual(playbookErrors.notFound);
      expect((await del(stranger.headers, priv).expect(404)).body).toEqual(playbookErrors.notFound);
      expect((await get(admin, priv).expect(200)).body.Can).toEqual(ALL);
      await put(admin, priv, { Desc: 'by admin' }).expect(200);
      expect(uuids(await list(member.headers).expect(200))).toEqual(expect.arrayContaining([shared, global]));
      expect(uuids(await list(member.headers))).not.toContain(priv);
      expect(uuids(await list(stranger.headers))).toContain(global);
      expect(uuids(await list(stranger.headers))).not.toContain(shared);
      expect(uuids(await list(admin))).not.toContain(priv);
      expect(uuids(await list(admin, '?admin=true').expect(200))).toEqual(expect.arrayContaining([priv, shared, global]));
      expect(uuids(await list(stranger.headers, '?admin=true'))).not.toContain(priv); // the flag is ignored for non-admins
      expect((await list(owner.headers, '?admin=maybe').expect(400)).body).toEqual(errorBody(requestErrors.notBoolean('admin'), 'VALIDATION_FAILED'));
      // an admin hands a playbook to another owner; the owner may not
      expect((await put(owner.headers, priv, { UID: member.uid }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'));
      expect((await put(admin, priv, { UID: member.uid }).expect(200)).body.UID).toBe(member.uid);
      expect((await get(owner.headers, priv).expect(404)).body).toEqual(playbookErrors.notFound);
      await del(admin, priv).expect(200);
    });

    it('only admins set Global or another owner; non-admins share only with their groups', async () => {
      expect((await create(owner.headers, { Name: 'g', Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await create(owner.headers, { Name: 'g', UID: member.uid }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'));
      const other = await createGroup(t.http, admin);
      expect((await create(owner.headers, { Name: 'g', GIDs: [other] }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyOwnGroups(other), 'NOT_A_MEMBER_OF_GROUPS'));
      expect((await create(owner.headers, { Name: 'g', GIDs: [999999] }).expect(400)).body).toEqual(errorBody(sharingErrors.unknownGroup(999999, 'GIDs'), 'UNKNOWN_GROUPS'));
      expect((await create(admin, { Name: 'g', UID: 999999 }).expect(400)).body).toEqual(errorBody(sharingErrors.userDoesNotExist(999999), 'OWNER_DOES_NOT_EXIST'));
      const id = await make(owner.headers);
      expect((await put(owner.headers, id, { Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await put(admin, id, { Global: true }).expect(200)).body.Global).toBe(true);
    });

    it('a deleted group leaves the GIDs of playbooks shared with it', async () => {
      const doomed = await createGroup(t.http, admin);
      await addToGroup(t.http, admin, owner.uid, doomed);
      const id = await make(owner.headers, { GIDs: [doomed, gid] });
      await request(t.http).delete(`/api/groups/${doomed}`).set(admin).expect(200);
      expect((await get(owner.headers, id).expect(200)).body.GIDs).toEqual([gid]);
    });

    it('a deleted owner takes their playbooks along', async () => {
      const gone = await createUser(t.http, admin, { prefix: 'pgone' });
      const id = await make(gone.headers);
      await request(t.http).delete(`/api/users/${gone.uid}`).set(admin).expect(200);
      expect((await get(admin, id).expect(404)).body).toEqual(playbookErrors.notFound);
    });

    it('API tokens: PlaybookRead reads, PlaybookWrite writes', async () => {
      const id = await make(owner.headers);
      const none = await createToken(t.http, owner.headers, ['Search']);
      const ro = await createToken(t.http, owner.headers, ['PlaybookRead']);
      const wo = await createToken(t.http, owner.headers, ['PlaybookWrite']);
      const rw = await createToken(t.http, owner.headers, ['PlaybookRead', 'PlaybookWrite']);
      expect((await list(none.headers).expect(403)).body).toEqual(lacks('PlaybookRead'));
      expect((await get(none.headers, id).expect(403)).body).toEqual(lacks('PlaybookRead'));
      expect((await create(none.headers, { Name: 't' }).expect(403)).body).toEqual(lacks('PlaybookWrite'));
      expect((await get(ro.headers, id).expect(200)).body.Body).toBe(b64('# Hello'));
      expect(uuids(await list(ro.headers).expect(200))).toContain(id);
      expect((await create(ro.headers, { Name: 't' }).expect(403)).body).toEqual(lacks('PlaybookWrite'));
      expect((await put(ro.headers, id, { Desc: 'x' }).expect(403)).body).toEqual(lacks('PlaybookWrite'));
      expect((await del(ro.headers, id).expect(403)).body).toEqual(lacks('PlaybookWrite'));
      expect((await get(wo.headers, id).expect(403)).body).toEqual(lacks('PlaybookRead'));
      const made = (await create(wo.headers, { Name: 'by token' }).expect(200)).body as string;
      expect((await get(rw.headers, made).expect(200)).body).toMatchObject({ Name: 'by token', UID: owner.uid });
      await put(rw.headers, id, { Desc: 'y' }).expect(200);
      await del(rw.headers, id).expect(200);
      // an admin's token lists only what the admin reaches (admin mode is for sessions)
      const adminToken = await createToken(t.http, admin, ['PlaybookRead']);
      const priv = await make(stranger.headers);
      expect(uuids(await list(adminToken.headers, '?admin=true').expect(200))).not.toContain(priv);
    });
  });

  describe('hostile input: 4xx with {"Error","Code"}, never 5xx', () => {
    it(`a Body over MAX_PLAYBOOK_SIZE is 413 naming the limit and the setting; at the limit it is stored`, async () => {
      const over = await create(owner.headers, { Name: 'big', Body: b64('x'.repeat(MAX + 1)) }).expect(413);
      expect(over.body).toEqual(errorBody(requestErrors.overLimit("The playbook's Body", '4 KiB', 'MAX_PLAYBOOK_SIZE'), 'PLAYBOOK_TOO_LARGE'));
      const id = await make(owner.headers, { Body: b64('y'.repeat(MAX)) });
      expect((await put(owner.headers, id, { Body: b64('z'.repeat(MAX + 3)) }).expect(413)).body.Code).toBe('PLAYBOOK_TOO_LARGE');
      expect(text((await get(owner.headers, id)).body.Body)).toBe('y'.repeat(MAX));
      const meta = await create(owner.headers, { Name: 'm', Metadata: b64('m'.repeat(64 * 1024 + 1)) }).expect(413);
      expect(meta.body).toEqual(errorBody(requestErrors.overLimit("The playbook's Metadata", '64 KiB', 'a fixed limit'), 'PLAYBOOK_TOO_LARGE'));
    });

    it('a request body over MAX_JSON_BODY is 413 before anything is read', async () => {
      const r = await create(owner.headers, { Name: 'huge', Body: 'A'.repeat(t.config.maxJsonBody + 16) });
      expect(r.status).toBe(413);
      expect(r.body.Code).toBe('BODY_TOO_LARGE');
    });

    it('wrong types, bad base64, empty names, NUL characters, a non-object body', async () => {
      const cases: Array<[unknown, number, string]> = [
        [{ Name: 'x', Body: 'not base64!' }, 400, 'PLAYBOOK_FIELD_NOT_BASE64'],
        [{ Name: 'x', Body: 'abc' }, 400, 'PLAYBOOK_FIELD_NOT_BASE64'],
        [{ Name: 'x', Body: 'a=bc' }, 400, 'PLAYBOOK_FIELD_NOT_BASE64'],
        [{ Name: 'x', Metadata: '%%%%' }, 400, 'PLAYBOOK_FIELD_NOT_BASE64'],
        [{ Name: 'x', Body: [1, 2, 3] }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', Body: 12 }, 400, 'VALIDATION_FAILED'],
        [{ Name: 42 }, 400, 'VALIDATION_FAILED'],
        [{}, 400, 'VALIDATION_FAILED'],
        [{ Name: '' }, 400, 'PLAYBOOK_NAME_REQUIRED'],
        [{ Name: '   ' }, 400, 'PLAYBOOK_NAME_REQUIRED'],
        [{ Name: 'n'.repeat(257) }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', Labels: 'a' }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', Labels: Array.from({ length: 101 }, (_, i) => `l${i}`) }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', GIDs: ['a'] }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', GUID: 'nope' }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', Author: 'Ann' }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', Author: { Name: 7 } }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', Author: { URL: 'u'.repeat(1025) } }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x', Global: 'yes' }, 400, 'VALIDATION_FAILED'],
        [{ Name: 'x\u0000y' }, 400, 'INVALID_VALUE'],
        [[{ Name: 'x' }], 400, 'VALIDATION_FAILED'],
      ];
      for (const [body, status, code] of cases) {
        const r = await create(owner.headers, body);
        expect([JSON.stringify(body).slice(0, 60), r.status, r.body.Code, typeof r.body.Error]).toEqual([JSON.stringify(body).slice(0, 60), status, code, 'string']);
      }
      expect((await create(owner.headers, { Name: 'x', Body: 'not base64!' })).body).toEqual(playbookErrors.notBase64('Body'));
      expect((await create(owner.headers, { Name: '' })).body).toEqual(playbookErrors.nameRequired);
      const id = await make(owner.headers);
      for (const body of [{ Body: '***' }, { Name: '' }, { Desc: 5 }, { GUID: 'x' }]) {
        const r = await put(owner.headers, id, body);
        expect([r.status, typeof r.body.Code]).toEqual([400, 'string']);
      }
    });

    it('markdown is stored as sent: a script in it comes back byte for byte (the console renders no HTML)', async () => {
      const md = '<script>alert(1)</script>\n[x](javascript:alert(1))\n<img src=x onerror=alert(1)>';
      const id = await make(owner.headers, { Body: b64(md) });
      const r = await get(owner.headers, id).expect(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(text(r.body.Body)).toBe(md);
    });

    it('line breaks inside base64 are ignored, as Go reads []byte', async () => {
      const encoded = b64('hello playbook');
      const id = await make(owner.headers, { Body: `${encoded.slice(0, 8)}\r\n${encoded.slice(8)}` });
      expect(text((await get(owner.headers, id)).body.Body)).toBe('hello playbook');
    });
  });
});
