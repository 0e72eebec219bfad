import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, requestErrors, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

/** The actionables' refusals, word for word (src/common/errors/codes.ts). */
const pivotErrors = {
  notFound: errorBody('Actionable not found', 'PIVOT_NOT_FOUND'),
  notYours: (verb: string) => errorBody(`Only the owner or an admin may ${verb} this actionable`, 'PIVOT_NOT_YOURS'),
};
const lacks = (cap: string) => errorBody(authErrors.tokenLacks(cap), 'API_TOKEN_LACKS_CAPABILITY');
const ALL = { Delete: true, Modify: true, Share: true };
const NONE = { Delete: false, Modify: false, Share: false };

/** The product's own example (wiki api/actionables.md, "Create an actionable"). */
const whois = () => ({
  Name: 'IP actions',
  Description: 'Actions for an IP address',
  Contents: {
    actions: [
      {
        name: 'Whois',
        description: null,
        placeholder: null,
        start: { type: 'string', format: null, placeholder: null },
        end: { type: 'string', format: null, placeholder: null },
        command: { type: 'url', reference: 'https://www.whois.com/whois/_VALUE_', options: {} },
      },
    ],
    menuLabel: null,
    triggers: [{ pattern: '/\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b/g', hyperlink: true }],
  },
});

const queryAction = (reference: string) => ({ name: 'Search it', description: null, placeholder: null, command: { type: 'query', reference } });

describe('actionables, the product pivots (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'powner' });
    member = await createUser(t.http, admin, { prefix: 'pmember' });
    stranger = await createUser(t.http, admin, { prefix: 'pstranger' });
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
  });
  afterAll(() => t.close());

  const create = (h: Headers, body: object) => request(t.http).post('/api/pivots').set(h).send(body);
  const get = (h: Headers, id: string, q = '') => request(t.http).get(`/api/pivots/${id}${q}`).set(h);
  const put = (h: Headers, id: string, body: object, q = '') => request(t.http).put(`/api/pivots/${id}${q}`).set(h).send(body);
  const del = (h: Headers, id: string, q = '') => request(t.http).delete(`/api/pivots/${id}${q}`).set(h);
  const list = (h: Headers, q = '') => request(t.http).get(`/api/pivots${q}`).set(h);
  const guids = (r: request.Response) => (r.body as Array<{ GUID: string }>).map((p) => p.GUID);

  async function make(h: Headers, body: object = {}): Promise<string> {
    const res = await create(h, { ...whois(), ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    expect(res.body).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    return res.body as string;
  }

  describe('the API (product shapes)', () => {
    it("POST answers the new GUID; GET answers the product's WirePivot with Contents as the console wrote it; PUT the updated one; DELETE null", async () => {
      const guid = await make(owner.headers);
      const got = await get(owner.headers, guid).expect(200);
      expect(got.body).toEqual({
        GUID: guid,
        ThingUUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
        UID: owner.uid,
        GIDs: null,
        Global: false,
        WriteAccess: { Global: false, GIDs: [] },
        Name: 'IP actions',
        Description: 'Actions for an IP address',
        Updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        Contents: {
          menuLabel: null,
          actions: [{ ...whois().Contents.actions[0], command: { type: 'url', reference: 'https://www.whois.com/whois/_VALUE_', options: {} } }],
          triggers: [{ pattern: '/\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b/g', hyperlink: true, disabled: false }],
        },
        Labels: null,
        Disabled: false,
        Can: ALL,
      });
      expect(got.body.ThingUUID).not.toBe(guid);
      // The console sends back what it read, changed.
      const upd = await put(owner.headers, guid, { ...got.body, Name: 'IPs', GIDs: [gid], Labels: ['net'], Disabled: true, GUID: randomUUID() }).expect(200);
      expect(upd.body).toMatchObject({
        GUID: guid,
        ThingUUID: got.body.ThingUUID,
        Name: 'IPs',
        GIDs: [gid],
        Labels: ['net'],
        Disabled: true,
        Description: 'Actions for an IP address',
      });
      expect(upd.body.Contents).toEqual(got.body.Contents);
      expect(Date.parse(upd.body.Updated)).toBeGreaterThanOrEqual(Date.parse(got.body.Updated));
      // Absent fields keep their value.
      expect((await put(owner.headers, guid, { Description: 'd2' }).expect(200)).body).toMatchObject({ Name: 'IPs', Description: 'd2', Disabled: true, GIDs: [gid] });
      expect((await del(owner.headers, guid).expect(200)).body).toBeNull();
      expect((await get(owner.headers, guid).expect(404)).body).toEqual(pivotErrors.notFound);
      expect((await del(owner.headers, guid).expect(404)).body).toEqual(pivotErrors.notFound);
    });

    it('a GUID in the body is kept (as kits install it); a string trigger is the older form of {pattern, hyperlink: true}', async () => {
      const guid = randomUUID().toUpperCase();
      const got = await make(owner.headers, { GUID: guid, Contents: { triggers: ['^foo$'], actions: [queryAction('tag=x grep _VALUE_')] } });
      expect(got).toBe(guid.toLowerCase());
      const body = (await get(owner.headers, got).expect(200)).body;
      expect(body.Contents).toEqual({
        menuLabel: null,
        triggers: [{ pattern: '^foo$', hyperlink: true, disabled: false }],
        actions: [{ name: 'Search it', description: null, placeholder: null, command: { type: 'query', reference: 'tag=x grep _VALUE_', options: {} } }],
      });
      expect((await create(owner.headers, { ...whois(), GUID: 'not-a-guid' }).expect(400)).body).toEqual(errorBody(requestErrors.guidMustBeUuid, 'INVALID_GUID'));
      expect((await get(owner.headers, 'nope').expect(400)).body).toEqual(errorBody(requestErrors.invalidUuid('nope'), 'INVALID_UUID'));
    });

    it('a dashboard action names its dashboard by GUID (the contract), and that GUID opens the dashboard for the person', async () => {
      const d = await request(t.http).post('/api/dashboards').set(owner.headers).send({ Name: 'Hosts', Data: {} }).expect(200);
      const dash = (await request(t.http).get(`/api/dashboards/${d.body}`).set(owner.headers).expect(200)).body as { ID: number; GUID: string };
      const action = (reference: string) => ({ name: 'Open', description: null, placeholder: null, command: { type: 'dashboard', reference, options: { variable: 'host' } } });
      const byId = await create(owner.headers, { Name: 'dash', Contents: { triggers: ['x'], actions: [action(String(dash.ID))] } }).expect(400);
      expect(byId.body).toEqual(errorBody('Contents.actions[0].command.reference: a dashboard action refers to its dashboard by GUID', 'PIVOT_REFERENCE_NOT_GUID'));
      const guid = await make(owner.headers, { Contents: { triggers: ['x'], actions: [action(dash.GUID.toUpperCase())] } });
      const stored = (await get(owner.headers, guid).expect(200)).body.Contents.actions[0].command;
      expect(stored).toEqual({ type: 'dashboard', reference: dash.GUID, options: { variable: 'host' } });
      const opened = await request(t.http).get(`/api/dashboards/${stored.reference}`).set(owner.headers).expect(200);
      expect(opened.body.ID).toBe(dash.ID);
      for (const type of ['template', 'savedQuery']) {
        const r = await create(owner.headers, { Name: 'x', Contents: { actions: [{ name: 'a', command: { type, reference: 'abc' } }] } }).expect(400);
        expect(r.body.Code).toBe('PIVOT_REFERENCE_NOT_GUID');
      }
    });

    it('owner, group member, stranger and admin: read, change, delete; listings; admin mode by ThingUUID', async () => {
      const priv = await make(owner.headers);
      const shared = await make(owner.headers, { GIDs: [gid] });
      const global = await make(admin, { UID: owner.uid, Global: true });
      for (const id of [priv, shared, global]) expect((await get(owner.headers, id).expect(200)).body.Can).toEqual(ALL);
      expect((await get(member.headers, priv).expect(404)).body).toEqual(pivotErrors.notFound);
      expect((await get(member.headers, shared).expect(200)).body.Can).toEqual(NONE);
      expect((await get(stranger.headers, shared).expect(404)).body).toEqual(pivotErrors.notFound);
      expect((await get(stranger.headers, global).expect(200)).body.Can).toEqual(NONE);
      expect((await put(member.headers, shared, { Name: 'z' }).expect(403)).body).toEqual(pivotErrors.notYours('change'));
      expect((await put(stranger.headers, priv, { Name: 'z' }).expect(404)).body).toEqual(pivotErrors.notFound);
      expect((await del(member.headers, shared).expect(403)).body).toEqual(pivotErrors.notYours('delete'));
      expect((await del(stranger.headers, global).expect(403)).body).toEqual(pivotErrors.notYours('delete'));
      expect((await get(admin, priv).expect(200)).body.Can).toEqual(ALL);
      await put(admin, priv, { Name: 'by admin' }).expect(200);
      expect(guids(await list(member.headers).expect(200))).toEqual(expect.arrayContaining([shared, global]));
      expect(guids(await list(member.headers))).not.toContain(priv);
      expect(guids(await list(stranger.headers))).toContain(global);
      expect(guids(await list(stranger.headers))).not.toContain(shared);
      expect(guids(await list(admin))).not.toContain(priv);
      expect(guids(await list(admin, '?admin=true'))).toEqual(expect.arrayContaining([priv, shared, global]));
      expect(guids(await list(stranger.headers, '?admin=true'))).not.toContain(priv); // a user's flag is ignored
      // Admins reach one instance by its ThingUUID with ?admin=true; others never by ThingUUID.
      const thing = (await get(owner.headers, priv)).body.ThingUUID as string;
      expect((await get(admin, thing, '?admin=true').expect(200)).body.GUID).toBe(priv);
      expect((await get(owner.headers, thing, '?admin=true').expect(404)).body).toEqual(pivotErrors.notFound);
      await put(admin, thing, { Description: 'via ThingUUID' }, '?admin=true').expect(200);
      expect((await get(owner.headers, priv)).body.Description).toBe('via ThingUUID');
      await del(admin, thing, '?admin=true').expect(200);
      await get(owner.headers, priv).expect(404);
      expect((await list(owner.headers, '?admin=maybe').expect(400)).body).toEqual(errorBody(requestErrors.notBoolean('admin'), 'VALIDATION_FAILED'));
    });

    it("one GUID, several owners: each reads their own first, then a group's, then a global one", async () => {
      const guid = randomUUID();
      await make(admin, { GUID: guid, Name: 'global copy', Global: true });
      expect((await get(stranger.headers, guid).expect(200)).body.Name).toBe('global copy');
      await make(admin, { GUID: guid, Name: 'group copy', UID: owner.uid, GIDs: [gid] });
      expect((await get(member.headers, guid).expect(200)).body.Name).toBe('group copy');
      await make(member.headers, { GUID: guid, Name: 'my copy' });
      expect((await get(member.headers, guid).expect(200)).body.Name).toBe('my copy');
      // A copy reusing another owner's GUID stays private unless an admin shares it.
      const r = await put(member.headers, guid, { GIDs: [gid] }).expect(403);
      expect(r.body).toEqual(errorBody(sharingErrors.reusedGuid, 'GUID_OF_ANOTHER_OWNER'));
    });

    it('only admins set Global or another owner; non-admins share only with their groups; a deleted group is forgotten', async () => {
      expect((await create(owner.headers, { ...whois(), Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      expect((await create(owner.headers, { ...whois(), UID: member.uid }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetOwner, 'OTHER_OWNER_ADMIN_ONLY'));
      const other = await createGroup(t.http, admin);
      expect((await create(owner.headers, { ...whois(), GIDs: [other] }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyOwnGroups(other), 'NOT_A_MEMBER_OF_GROUPS'));
      const id = await make(owner.headers);
      expect((await put(owner.headers, id, { Global: true }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyAdminsSetGlobal, 'GLOBAL_ADMIN_ONLY'));
      const gone = await createGroup(t.http, admin);
      const shared = await make(admin, { UID: owner.uid, GIDs: [gid, gone] });
      await request(t.http).delete(`/api/groups/${gone}`).set(admin).expect(200);
      expect((await get(owner.headers, shared).expect(200)).body.GIDs).toEqual([gid]);
    });

    it('API tokens: PivotRead reads, PivotWrite writes', async () => {
      const id = await make(owner.headers);
      const none = await createToken(t.http, owner.headers, ['Search']);
      const ro = await createToken(t.http, owner.headers, ['PivotRead']);
      const rw = await createToken(t.http, owner.headers, ['PivotRead', 'PivotWrite']);
      expect((await list(none.headers).expect(403)).body).toEqual(lacks('PivotRead'));
      expect((await get(none.headers, id).expect(403)).body).toEqual(lacks('PivotRead'));
      expect(guids(await list(ro.headers).expect(200))).toContain(id);
      await get(ro.headers, id).expect(200);
      expect((await create(ro.headers, whois()).expect(403)).body).toEqual(lacks('PivotWrite'));
      expect((await put(ro.headers, id, { Name: 'x' }).expect(403)).body).toEqual(lacks('PivotWrite'));
      expect((await del(ro.headers, id).expect(403)).body).toEqual(lacks('PivotWrite'));
      const made = await create(rw.headers, whois()).expect(200);
      await put(rw.headers, made.body as string, { Name: 'by token' }).expect(200);
      await del(rw.headers, made.body as string).expect(200);
      await del(rw.headers, id).expect(200);
    });
  });

  describe('hostile input answers 4xx with {Error, Code}, never 5xx', () => {
    const withContents = (Contents: unknown) => ({ Name: 'x', Contents });

    it('an invalid pattern is refused in RE2 words; a catastrophic one is refused too; both fast', async () => {
      const started = Date.now();
      const bad = await create(owner.headers, withContents({ triggers: ['ok', { pattern: 'x[a-' }] })).expect(400);
      expect(bad.body).toEqual(errorBody('Contents.triggers[1].pattern: missing closing ]: [a- at offset 1 of the expression', 'PIVOT_TRIGGER_INVALID'));
      const look = await create(owner.headers, withContents({ triggers: ['/a(?=b)/g'] })).expect(400);
      expect(look.body.Code).toBe('PIVOT_TRIGGER_INVALID');
      expect(look.body.Error).toMatch(/^Contents\.triggers\[0\]\.pattern: invalid or unsupported Perl syntax/);
      for (const pattern of ['(a+)+$', '/^(\\w+\\s?)+$/', '(a|a)*b', '(x*)*y']) {
        const r = await create(owner.headers, withContents({ triggers: [{ pattern, hyperlink: true }] })).expect(400);
        expect(r.body.Code).toBe('PIVOT_TRIGGER_UNSAFE');
        expect(r.body.Error).toMatch(/^Contents\.triggers\[0\]\.pattern: .+ repeats a repetition, which can take exponential time in the console/);
      }
      const id = await make(owner.headers);
      expect((await put(owner.headers, id, withContents({ triggers: ['(a+)+$'] })).expect(400)).body.Code).toBe('PIVOT_TRIGGER_UNSAFE');
      const wide = await create(owner.headers, withContents({ triggers: ['x.*a.*b.*c.*d'] })).expect(400);
      expect(wide.body).toEqual(
        errorBody(
          'Contents.triggers[0].pattern: 4 repetitions of any character (.* or .+) can take a long time in the console on long values; at most 3: name what is repeated instead',
          'PIVOT_TRIGGER_TOO_WIDE',
        ),
      );
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('counts and sizes are bounded', async () => {
      const many = await create(owner.headers, withContents({ triggers: Array.from({ length: 65 }, () => 'x') })).expect(400);
      expect(many.body).toEqual(errorBody('Invalid actionable Contents: at most 64 triggers are allowed', 'PIVOT_TOO_MANY'));
      const actions = await create(owner.headers, withContents({ actions: Array.from({ length: 65 }, () => queryAction('x')) })).expect(400);
      expect(actions.body).toEqual(errorBody('Invalid actionable Contents: at most 64 actions are allowed', 'PIVOT_TOO_MANY'));
      const long = await create(owner.headers, withContents({ triggers: ['x'.repeat(1025)] })).expect(400);
      expect(long.body).toEqual(errorBody('Invalid actionable Contents: Contents.triggers[0].pattern must be at most 1024 characters', 'PIVOT_CONTENTS_INVALID'));
      const big = await create(owner.headers, withContents({ actions: Array.from({ length: 20 }, () => queryAction('y'.repeat(16000))) })).expect(400);
      expect(big.body).toEqual(errorBody('Actionable Contents is larger than the limit of 256 KiB', 'PIVOT_CONTENTS_TOO_LARGE'));
      await create(owner.headers, withContents({ triggers: Array.from({ length: 64 }, (_, i) => `v${i}`), actions: Array.from({ length: 64 }, () => queryAction('x')) })).expect(
        200,
      );
      const huge = await create(owner.headers, { Name: 'x', Description: 'd'.repeat(5 * 1024 * 1024) });
      expect(huge.status).toBe(413);
      expect(huge.body.Code).toBe('BODY_TOO_LARGE');
      const deep = await request(t.http)
        .post('/api/pivots')
        .set({ ...owner.headers, 'Content-Type': 'application/json' })
        .send(`{"Contents":${'['.repeat(10000)}${']'.repeat(10000)}}`);
      expect(deep.status).toBe(400);
      expect(deep.body).toEqual({ Error: expect.any(String), Code: expect.any(String) });
    });

    it('wrong types and unknown commands name the field', async () => {
      const cases: Array<[object, string, string?]> = [
        [{ Name: 5, Contents: {} }, 'VALIDATION_FAILED'],
        [{ Name: 'x', Disabled: 'yes', Contents: {} }, 'VALIDATION_FAILED'],
        [{ Name: 'x', GIDs: 'x', Contents: {} }, 'VALIDATION_FAILED'],
        [{ Name: 'x' }, 'PIVOT_CONTENTS_INVALID', 'Invalid actionable Contents: Contents must be a JSON object'],
        [withContents('x'), 'PIVOT_CONTENTS_INVALID', 'Invalid actionable Contents: Contents must be a JSON object'],
        [withContents([]), 'PIVOT_CONTENTS_INVALID'],
        [withContents({ triggers: 'x' }), 'PIVOT_CONTENTS_INVALID', 'Invalid actionable Contents: Contents.triggers must be an array'],
        [withContents({ triggers: [5] }), 'PIVOT_CONTENTS_INVALID', 'Invalid actionable Contents: Contents.triggers[0] must be an object or a string'],
        [
          withContents({ triggers: [{ pattern: 'x', hyperlink: 'yes' }] }),
          'PIVOT_CONTENTS_INVALID',
          'Invalid actionable Contents: Contents.triggers[0].hyperlink must be true or false',
        ],
        [withContents({ triggers: [{ pattern: '' }] }), 'PIVOT_CONTENTS_INVALID', 'Invalid actionable Contents: Contents.triggers[0].pattern must not be empty'],
        [withContents({ menuLabel: 3 }), 'PIVOT_CONTENTS_INVALID', 'Invalid actionable Contents: Contents.menuLabel must be a string'],
        [withContents({ actions: [{ name: 'a', command: { type: 'shell', reference: 'rm' } }] }), 'PIVOT_CONTENTS_INVALID'],
        [withContents({ actions: [{ name: 'a' }] }), 'PIVOT_CONTENTS_INVALID', 'Invalid actionable Contents: Contents.actions[0].command must be an object'],
        [
          withContents({ actions: [{ command: { type: 'query', reference: 'x' } }] }),
          'PIVOT_CONTENTS_INVALID',
          'Invalid actionable Contents: Contents.actions[0].name is required',
        ],
        [withContents({ actions: [{ name: 'a', start: { type: 'epoch' }, command: { type: 'query', reference: 'x' } }] }), 'PIVOT_CONTENTS_INVALID'],
        [
          withContents({ actions: [{ name: 'a', command: { type: 'url', reference: 'javascript:alert(1)' } }] }),
          'PIVOT_URL_INVALID',
          'Contents.actions[0].command.reference: a url action opens an http:// or https:// address',
        ],
        [withContents({ actions: [{ name: 'a', command: { type: 'query', reference: 'x', options: [] } }] }), 'PIVOT_CONTENTS_INVALID'],
      ];
      for (const [body, code, message] of cases) {
        const r = await create(owner.headers, body);
        expect([JSON.stringify(body).slice(0, 80), r.status, r.body.Code]).toEqual([JSON.stringify(body).slice(0, 80), 400, code]);
        if (message) expect(r.body.Error).toBe(message);
      }
      expect((await create(owner.headers, ['x']).expect(400)).body).toEqual(errorBody(requestErrors.notAnObject, 'VALIDATION_FAILED'));
      const id = await make(owner.headers);
      const before = (await get(owner.headers, id).expect(200)).body;
      expect((await put(owner.headers, id, { Name: 'changed', ...withContents({ triggers: [{}] }) }).expect(400)).body.Code).toBe('PIVOT_CONTENTS_INVALID');
      expect((await get(owner.headers, id).expect(200)).body).toEqual(before); // a refused update changes nothing
    });
  });
});
