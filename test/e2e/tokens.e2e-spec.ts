import type { ErrorCode } from '../../src/common/errors/codes';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { CAPABILITIES } from '../../src/identity/capabilities';
import { generateTokenSecret, isWellFormedTokenSecret } from '../../src/identity/token-secret';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, fieldErrors, requestErrors, tokenErrors } from '../setup/errors';
import { describeDeclaration, routeTable } from '../setup/route-table';
import { createToken } from '../setup/tokens';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const { invalidRequest } = requestErrors;
const { each, maxItems, maxLength } = fieldErrors;
/** What the validation pipe says of a token body without its required fields. */
const noTokenFields = invalidRequest(maxLength('name', 256), each('capabilities', 'must be shorter than or equal to 64 characters'));

/** A token record as the API shows it: never with the secret. */
const record = (over: Record<string, unknown> = {}) => ({
  id: expect.stringMatching(UUID),
  name: expect.any(String),
  description: expect.any(String),
  uid: expect.any(Number),
  createdAt: expect.stringMatching(ISO),
  capabilities: expect.any(Array),
  lastUsedAt: null,
  ...over,
});

describe('API tokens', () => {
  let t: TestApp;
  let admin: Headers;
  let db: Client;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const http = () => request(t.http);
  const whoami = (h: Headers) => http().get('/api/info/whoami').set(h);

  describe('creation and the secret', () => {
    let u: TestUser;
    beforeAll(async () => {
      u = await createUser(t.http, admin);
    });

    it('returns the record plus the secret, once; listings and GET never show it', async () => {
      const expiresAt = inMinutes(60);
      const res = await http()
        .post('/api/tokens')
        .set(u.headers)
        .send({ name: 'ci', description: 'for CI', capabilities: ['listusers', 'ListGroups', 'LISTUSERS'], expiresAt })
        .expect(200);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        name: 'ci',
        description: 'for CI',
        uid: u.uid,
        createdAt: expect.stringMatching(ISO),
        expiresAt,
        capabilities: ['ListUsers', 'ListGroups'],
        lastUsedAt: null,
        token: expect.any(String),
      });
      const secret = res.body.token as string;
      const { token: _secret, ...rec } = res.body;

      const list = await http().get('/api/tokens').set(u.headers).expect(200);
      expect(list.body).toEqual([rec]);
      const one = await http().get(`/api/tokens/${rec.id}`).set(u.headers).expect(200);
      expect(one.body).toEqual(rec);
      const all = await http().get('/api/tokens?admin=true').set(admin).expect(200);
      expect(all.body).toContainEqual(rec);
      const put = await http().put(`/api/tokens/${rec.id}`).set(u.headers).send({ description: 'changed' }).expect(200);
      expect(put.body).toEqual({ ...rec, description: 'changed' });
      for (const body of [list.body, one.body, all.body, put.body]) {
        expect(JSON.stringify(body)).not.toContain(secret);
        expect(JSON.stringify(body)).not.toContain(secret.slice(4, 30));
      }
      await whoami({ 'Service-Token': secret }).expect(200);
    });

    it('makes secrets with the sst_ prefix, 256 random bits and a checksum, all distinct', async () => {
      const secrets = new Set<string>();
      for (let i = 0; i < 5; i++) secrets.add((await createToken(t.http, u.headers, [])).secret);
      expect(secrets.size).toBe(5);
      for (const s of secrets) {
        expect(s).toMatch(/^sst_[A-Za-z0-9_-]{48}$/);
        expect(isWellFormedTokenSecret(s)).toBe(true);
        const raw = Buffer.from(s.slice(4), 'base64url');
        expect(raw.length).toBe(36); // 32 random bytes + CRC-32
      }
    });

    it('stores only the SHA-256 digest of the secret, in no column anywhere in plain text', async () => {
      const tok = await createToken(t.http, u.headers, ['ListUsers']);
      const row = await db.query(`SELECT secret_digest FROM api_token WHERE id = $1`, [tok.id]);
      expect(row.rows[0].secret_digest).toEqual(createHash('sha256').update(tok.secret).digest());
      const body = tok.secret.slice(4);
      const tables = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
      expect(tables.rows.length).toBeGreaterThan(3);
      for (const { table_name } of tables.rows as Array<{ table_name: string }>) {
        const hits = await db.query(`SELECT count(*)::int AS n FROM "${table_name}" x WHERE strpos(x::text, $1) > 0 OR strpos(x::text, $2) > 0`, [tok.secret, body]);
        expect({ table: table_name, hits: hits.rows[0].n }).toEqual({ table: table_name, hits: 0 });
      }
    });

    it('omits expiresAt for a token that never expires (absent, null or the zero time)', async () => {
      for (const expiresAt of [undefined, null, '0001-01-01T00:00:00Z']) {
        const tok = await createToken(t.http, u.headers, ['ListUsers'], { expiresAt });
        expect(tok.body).toEqual({ ...record({ uid: u.uid, capabilities: ['ListUsers'] }), token: tok.secret });
        expect(tok.body).not.toHaveProperty('expiresAt');
      }
    });

    it('lists the capabilities the caller may grant', async () => {
      const res = await http().get('/api/tokens/capabilities').set(u.headers).expect(200);
      expect(res.body).toEqual([...CAPABILITIES]);
      const tok = await createToken(t.http, u.headers, ['TokenRead']);
      // Through a token, only what that token holds: it may grant nothing more.
      const viaToken = await http().get('/api/tokens/capabilities').set(tok.headers).expect(200);
      expect(viaToken.body).toEqual(['TokenRead']);
    });

    it('accepts every capability name the product defines; those without an API here grant nothing, and say so', async () => {
      expect(CAPABILITIES).toEqual(expect.arrayContaining(['KitWrite', 'TemplateRead', 'ScheduleWrite', 'SecretRead', 'AlertWrite', 'LogbotAI']));
      const kit = await createToken(t.http, u.headers, ['kitwrite', 'TemplateRead']);
      expect(kit.body.capabilities).toEqual(['TemplateRead', 'KitWrite']);
      await http().get('/api/dashboards').set(kit.headers).expect(403);
      await http().get('/api/users').set(kit.headers).expect(403);
      const detail = (await http().get('/api/tokens/capabilities?detail=true').set(u.headers).expect(200)).body as { Name: string; Cap: number; Grants: boolean }[];
      const by = new Map(detail.map((d) => [d.Name, d]));
      expect(by.get('KitWrite')).toEqual(expect.objectContaining({ Cap: 27, Grants: false }));
      expect(by.get('Search')).toEqual(expect.objectContaining({ Cap: 0, Grants: true }));
      expect(by.get('Ingest')).toEqual(expect.objectContaining({ Cap: 38, Grants: true }));
      expect(by.get('PreferencesRead')).toEqual(expect.objectContaining({ Grants: true }));
      expect(detail.map((d) => d.Name)).toEqual([...CAPABILITIES]);
    });

    it('stores a past expiry on update, as the product does: the token is then expired, listed and refreshable', async () => {
      const tok = await createToken(t.http, u.headers, ['ListUsers']);
      await http().get('/api/users').set(tok.headers).expect(200);
      const past = new Date(Date.now() - 2000).toISOString();
      const res = await http()
        .put(`/api/tokens/${tok.id}`)
        .set(u.headers)
        .send({ name: 'expired now', description: null, capabilities: ['ListUsers'], expiresAt: past })
        .expect(200);
      expect(res.body.expiresAt).toBe(past);
      await http().get('/api/users').set(tok.headers).expect(401);
      await http()
        .post('/api/tokens')
        .set(u.headers)
        .send({ name: 'x', capabilities: ['ListUsers'], expiresAt: past })
        .expect(400);
    });

    it('refuses bad input with 400 and stores nothing', async () => {
      const v = await createUser(t.http, admin);
      const eachCapability = invalidRequest(each('capabilities', 'must be shorter than or equal to 64 characters'));
      const bad: Array<[string, unknown, string, ErrorCode]> = [
        ['unknown capability', { name: 'x', capabilities: ['ListUsers', 'Teleport'] }, tokenErrors.unknownCapabilities('Teleport'), 'UNKNOWN_CAPABILITIES'],
        ['capabilities not an array', { name: 'x', capabilities: 'ListUsers' }, invalidRequest(maxItems('capabilities', 256)), 'VALIDATION_FAILED'],
        ['capability not a string', { name: 'x', capabilities: [5] }, eachCapability, 'VALIDATION_FAILED'],
        ['missing capabilities', { name: 'x' }, eachCapability, 'VALIDATION_FAILED'],
        ['missing name', { capabilities: [] }, invalidRequest(maxLength('name', 256)), 'VALIDATION_FAILED'],
        ['empty name', { name: '', capabilities: [] }, invalidRequest(fieldErrors.minLength('name', 1)), 'VALIDATION_FAILED'],
        ['name too long', { name: 'n'.repeat(257), capabilities: [] }, invalidRequest(maxLength('name', 256)), 'VALIDATION_FAILED'],
        ['name not a string', { name: { a: 1 }, capabilities: [] }, invalidRequest(maxLength('name', 256)), 'VALIDATION_FAILED'],
        ['description too long', { name: 'x', description: 'd'.repeat(4097), capabilities: [] }, invalidRequest(maxLength('description', 4096)), 'VALIDATION_FAILED'],
        ['expiry in the past', { name: 'x', capabilities: [], expiresAt: '2001-01-01T00:00:00Z' }, tokenErrors.expiryPast, 'TOKEN_EXPIRES_AT_PAST'],
        ['expiry now-ish', { name: 'x', capabilities: [], expiresAt: new Date(Date.now() - 1000).toISOString() }, tokenErrors.expiryPast, 'TOKEN_EXPIRES_AT_PAST'],
        ['expiry not a date', { name: 'x', capabilities: [], expiresAt: 'tomorrow' }, tokenErrors.expiryFormat, 'TOKEN_EXPIRES_AT_INVALID'],
        ['expiry impossible day', { name: 'x', capabilities: [], expiresAt: '2999-02-31T00:00:00Z' }, tokenErrors.expiryFormat, 'TOKEN_EXPIRES_AT_INVALID'],
        ['expiry not a string', { name: 'x', capabilities: [], expiresAt: 12345 }, invalidRequest(maxLength('expiresAt', 64)), 'VALIDATION_FAILED'],
        ['too many capability items', { name: 'x', capabilities: Array(300).fill('ListUsers') }, invalidRequest(maxItems('capabilities', 256)), 'VALIDATION_FAILED'],
        ['huge capability name', { name: 'x', capabilities: ['a'.repeat(10_000)] }, eachCapability, 'VALIDATION_FAILED'],
        ['body is an array', [{ name: 'x', capabilities: [] }], noTokenFields, 'VALIDATION_FAILED'],
      ];
      for (const [why, body, message, code] of bad) {
        const res = await http()
          .post('/api/tokens')
          .set(v.headers)
          .send(body as object);
        expect({ why, status: res.status, body: res.body }).toEqual({ why, status: 400, body: errorBody(message, code) });
      }
      const malformed = await http().post('/api/tokens').set(v.headers).set('Content-Type', 'application/json').send('{"name": ').expect(400);
      expect(malformed.body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));
      const unknownCap = await http()
        .post('/api/tokens')
        .set(v.headers)
        .send({ name: 'x', capabilities: ['Teleport'] })
        .expect(400);
      expect(unknownCap.body).toEqual(errorBody(tokenErrors.unknownCapabilities('Teleport'), 'UNKNOWN_CAPABILITIES'));
      expect((await http().get('/api/tokens').set(v.headers).expect(200)).body).toEqual([]);
    });

    it('keeps hostile names verbatim and ignores unknown and read-only fields', async () => {
      const v = await createUser(t.http, admin);
      const name = `<script>alert(1)</script> '; DROP TABLE api_token; -- ✓`;
      const res = await http()
        .post('/api/tokens')
        .set(v.headers)
        .send({ name, capabilities: ['ListUsers'], id: '00000000-0000-0000-0000-000000000000', uid: 1, token: 'sst_mine', createdAt: '2000-01-01T00:00:00Z' })
        .expect(200);
      expect(res.body).toEqual({ ...record({ name, description: '', uid: v.uid, capabilities: ['ListUsers'] }), token: expect.stringMatching(/^sst_/) });
      expect(res.body.id).not.toBe('00000000-0000-0000-0000-000000000000');
      expect(res.body.token).not.toBe('sst_mine');
    });

    it(`limits a user to 100 tokens (409 beyond)`, async () => {
      const v = await createUser(t.http, admin);
      for (let i = 0; i < 100; i++)
        await http()
          .post('/api/tokens')
          .set(v.headers)
          .send({ name: `t${i}`, capabilities: [] })
          .expect(200);
      const res = await http().post('/api/tokens').set(v.headers).send({ name: 'one too many', capabilities: [] }).expect(409);
      expect(res.body).toEqual(errorBody(tokenErrors.limit(100), 'TOKEN_LIMIT_REACHED'));
      expect((await http().get('/api/tokens').set(v.headers).expect(200)).body).toHaveLength(100);
    });

    it('records lastUsedAt, at most about once a minute', async () => {
      const tok = await createToken(t.http, u.headers, ['TokenRead']);
      expect(tok.body.lastUsedAt).toBeNull();
      await whoami(tok.headers).expect(200);
      let seen: string | null = null;
      for (let i = 0; i < 50 && !seen; i++) {
        seen = (await http().get(`/api/tokens/${tok.id}`).set(u.headers).expect(200)).body.lastUsedAt;
        if (!seen) await sleep(50);
      }
      expect(seen).toMatch(ISO);
      await whoami(tok.headers).expect(200);
      await http().get(`/api/tokens/${tok.id}`).set(tok.headers).expect(200);
      await sleep(200);
      expect((await http().get(`/api/tokens/${tok.id}`).set(u.headers).expect(200)).body.lastUsedAt).toBe(seen);
    });
  });

  describe('who may act on a token', () => {
    let owner: TestUser;
    let stranger: TestUser;
    let tokId: string;

    beforeAll(async () => {
      owner = await createUser(t.http, admin);
      stranger = await createUser(t.http, admin);
      tokId = (await createToken(t.http, owner.headers, ['ListUsers'], { name: 'owned' })).id;
    });

    it("a stranger gets 404 for every route on another user's token, and nothing changes", async () => {
      const before = (await http().get(`/api/tokens/${tokId}`).set(owner.headers).expect(200)).body;
      for (const q of ['', '?admin=true']) {
        expect((await http().get(`/api/tokens/${tokId}${q}`).set(stranger.headers).expect(404)).body).toEqual(errorBody(tokenErrors.notFound, 'TOKEN_NOT_FOUND'));
        await http().put(`/api/tokens/${tokId}${q}`).set(stranger.headers).send({ name: 'stolen' }).expect(404);
        await http().patch(`/api/tokens/${tokId}${q}`).set(stranger.headers).send({}).expect(404);
        await http().delete(`/api/tokens/${tokId}${q}`).set(stranger.headers).expect(404);
      }
      expect((await http().get('/api/tokens').set(stranger.headers).expect(200)).body).toEqual([]);
      expect((await http().get(`/api/tokens/${tokId}`).set(owner.headers).expect(200)).body).toEqual(before);
    });

    it("a non-admin asking for everyone's tokens gets 403", async () => {
      const res = await http().get('/api/tokens?admin=true').set(stranger.headers).expect(403);
      expect(res.body).toEqual(errorBody(tokenErrors.adminListOnly, 'TOKENS_LIST_ALL_ADMIN_ONLY'));
      await http().get('/api/tokens?admin=false').set(stranger.headers).expect(200, []);
    });

    it('an admin reads, changes, refreshes and deletes any token by ID, with or without admin=true', async () => {
      const tok = await createToken(t.http, owner.headers, ['ListUsers']);
      expect((await http().get('/api/tokens').set(admin).expect(200)).body).not.toContainEqual(expect.objectContaining({ id: tok.id }));
      expect((await http().get('/api/tokens?admin=true').set(admin).expect(200)).body).toContainEqual(expect.objectContaining({ id: tok.id, uid: owner.uid }));
      await http().get(`/api/tokens/${tok.id}`).set(admin).expect(200);
      await http().get(`/api/tokens/${tok.id}?admin=true`).set(admin).expect(200);
      const put = await http().put(`/api/tokens/${tok.id}`).set(admin).send({ name: 'renamed by admin' }).expect(200);
      expect(put.body).toEqual(record({ id: tok.id, name: 'renamed by admin', uid: owner.uid, capabilities: ['ListUsers'] }));
      const patched = await http().patch(`/api/tokens/${tok.id}?admin=true`).set(admin).send({}).expect(200);
      expect(patched.body.uid).toBe(owner.uid);
      await whoami(tok.headers).expect(401);
      await whoami({ 'Service-Token': patched.body.token }).expect(200);
      const del = await http().delete(`/api/tokens/${tok.id}`).set(admin).expect(204);
      expect(del.text).toBe('');
      await whoami({ 'Service-Token': patched.body.token }).expect(401);
    });

    it("an admin's token is not an admin: it sees only its owner's tokens", async () => {
      const adminTok = await createToken(t.http, admin, ['TokenRead', 'TokenWrite']);
      await http().get('/api/tokens?admin=true').set(adminTok.headers).expect(403);
      await http().get(`/api/tokens/${tokId}`).set(adminTok.headers).expect(404);
      await http().delete(`/api/tokens/${tokId}`).set(adminTok.headers).expect(404);
      const own = await http().get('/api/tokens').set(adminTok.headers).expect(200);
      expect(own.body.every((x: { uid: number }) => x.uid === 1)).toBe(true);
    });

    it('PUT changes only the fields sent; capabilities are parsed as on create', async () => {
      const tok = await createToken(t.http, owner.headers, ['ListUsers'], { name: 'orig', description: 'desc', expiresAt: inMinutes(30) });
      const { token: _s, ...rec } = tok.body;
      const a = await http()
        .put(`/api/tokens/${tok.id}`)
        .set(owner.headers)
        .send({ capabilities: ['listgroups', 'ListUsers', 'listgroups'] })
        .expect(200);
      expect(a.body).toEqual({ ...rec, capabilities: ['ListUsers', 'ListGroups'] });
      const b = await http().put(`/api/tokens/${tok.id}`).set(owner.headers).send({ expiresAt: null }).expect(200);
      expect(b.body).not.toHaveProperty('expiresAt');
      await http()
        .put(`/api/tokens/${tok.id}`)
        .set(owner.headers)
        .send({ capabilities: ['Nope'] })
        .expect(400);
      await http().put(`/api/tokens/${tok.id}`).set(owner.headers).send({ expiresAt: 'tomorrow' }).expect(400);
      await http().put(`/api/tokens/${tok.id}`).set(owner.headers).send({ name: '' }).expect(400);
      expect((await http().get(`/api/tokens/${tok.id}`).set(owner.headers).expect(200)).body).toEqual(b.body);
      await whoami(tok.headers).expect(200); // PUT keeps the secret
    });

    it('answers 400 for invalid IDs and 404 for unknown ones', async () => {
      for (const id of ['not-a-uuid', '123', '00000000-0000-0000-0000-00000000000g', `${tokId}x`]) {
        const res = await http().get(`/api/tokens/${id}`).set(owner.headers).expect(400);
        expect(res.body).toEqual(errorBody(requestErrors.invalidUuid(id), 'INVALID_UUID'));
        await http().delete(`/api/tokens/${id}`).set(owner.headers).expect(400);
      }
      await http().get('/api/tokens/00000000-0000-4000-8000-000000000000').set(owner.headers).expect(404);
      await http().patch('/api/tokens/00000000-0000-4000-8000-000000000000').set(owner.headers).send({}).expect(404);
      await http().put('/api/tokens/00000000-0000-4000-8000-000000000000').set(owner.headers).send({}).expect(404);
      await http().delete('/api/tokens/00000000-0000-4000-8000-000000000000').set(owner.headers).expect(404);
    });

    it('DELETE answers 204 and the token stops working at once', async () => {
      const tok = await createToken(t.http, owner.headers, ['ListUsers']);
      await http().get('/api/users').set(tok.headers).expect(200);
      const res = await http().delete(`/api/tokens/${tok.id}`).set(owner.headers).expect(204);
      expect(res.text).toBe('');
      expect((await http().get('/api/users').set(tok.headers).expect(401)).body).toEqual(errorBody(authErrors.revokedToken, 'API_TOKEN_REVOKED'));
      // A shipper sending it to HEC is told the same, in HEC's shape.
      const hec = await http().post('/services/collector/event').set('Authorization', `Splunk ${tok.secret}`).send({ event: 'x' }).expect(401);
      expect(hec.body).toEqual(expect.objectContaining({ code: 4, text: `Invalid token: ${authErrors.revokedToken}` }));
      await http().get(`/api/tokens/${tok.id}`).set(owner.headers).expect(404);
      await http().delete(`/api/tokens/${tok.id}`).set(owner.headers).expect(404);
    });
  });

  describe('capabilities and routes', () => {
    let u: TestUser;
    let gid: number;
    let tokId: string;

    beforeAll(async () => {
      u = await createUser(t.http, admin);
      gid = await createGroup(t.http, admin);
      await addToGroup(t.http, admin, u.uid, gid);
      tokId = (await createToken(t.http, u.headers, [])).id;
    });

    /** Representative user-level routes of every existing feature, with the capability each declares. */
    const routes = (): Array<{ method: 'get' | 'put' | 'post' | 'delete'; path: string; route: string; cap: string; body?: object; ok: number }> => [
      { method: 'get', path: '/api/users', route: 'GET /api/users', cap: 'ListUsers', ok: 200 },
      { method: 'get', path: `/api/users/${u.uid}`, route: 'GET /api/users/:id', cap: 'UserRead', ok: 200 },
      { method: 'put', path: `/api/users/${u.uid}`, route: 'PUT /api/users/:id', cap: 'UserWrite', body: { Name: 'Renamed' }, ok: 200 },
      { method: 'get', path: `/api/users/${u.uid}/admin`, route: 'GET /api/users/:id/admin', cap: 'UserRead', ok: 200 },
      { method: 'get', path: `/api/users/${u.uid}/searchgroup`, route: 'GET /api/users/:id/searchgroup', cap: 'UserRead', ok: 200 },
      { method: 'put', path: `/api/users/${u.uid}/searchgroup`, route: 'PUT /api/users/:id/searchgroup', cap: 'SetSearchGroup', body: { GID: gid }, ok: 200 },
      { method: 'delete', path: `/api/users/${u.uid}/searchgroup`, route: 'DELETE /api/users/:id/searchgroup', cap: 'SetSearchGroup', ok: 200 },
      { method: 'get', path: `/api/users/${u.uid}/group`, route: 'GET /api/users/:id/group', cap: 'ListGroups', ok: 200 },
      { method: 'get', path: `/api/users/${u.uid}/sessions`, route: 'GET /api/users/:id/sessions', cap: 'UserRead', ok: 200 },
      { method: 'get', path: '/api/groups', route: 'GET /api/groups', cap: 'ListGroups', ok: 200 },
      { method: 'get', path: `/api/groups/${gid}`, route: 'GET /api/groups/:id', cap: 'ListGroups', ok: 200 },
      { method: 'get', path: `/api/groups/${gid}/members`, route: 'GET /api/groups/:id/members', cap: 'ListGroupMembers', ok: 200 },
      { method: 'get', path: '/api/tokens', route: 'GET /api/tokens', cap: 'TokenRead', ok: 200 },
      { method: 'get', path: '/api/tokens/capabilities', route: 'GET /api/tokens/capabilities', cap: 'TokenRead', ok: 200 },
      { method: 'get', path: `/api/tokens/${tokId}`, route: 'GET /api/tokens/:id', cap: 'TokenRead', ok: 200 },
      { method: 'put', path: `/api/tokens/${tokId}`, route: 'PUT /api/tokens/:id', cap: 'TokenWrite', body: { description: 'x' }, ok: 200 },
      { method: 'post', path: '/api/tokens', route: 'POST /api/tokens', cap: 'TokenWrite', body: { name: 'minted', capabilities: [] }, ok: 200 },
    ];

    it('the routes below declare the capabilities this test assumes', () => {
      const declared = new Map(routeTable(t.app).map((r) => [`${r.method} ${r.path}`, describeDeclaration(r.declaration)]));
      for (const r of routes()) expect({ route: r.route, decl: declared.get(r.route) }).toEqual({ route: r.route, decl: `capability:${r.cap}` });
    });

    it('a token with the capability passes; one holding every other capability gets 403', async () => {
      for (const r of routes()) {
        const withCap = await createToken(t.http, u.headers, [r.cap]);
        const withoutCap = await createToken(
          t.http,
          u.headers,
          CAPABILITIES.filter((c) => c !== r.cap),
        );
        const denied = await http()[r.method](r.path).set(withoutCap.headers).send(r.body);
        expect({ route: r.route, status: denied.status, body: denied.body }).toEqual({
          route: r.route,
          status: 403,
          body: errorBody(authErrors.tokenLacks(r.cap), 'API_TOKEN_LACKS_CAPABILITY'),
        });
        const ok = await http()[r.method](r.path).set(withCap.headers).send(r.body);
        expect({ route: r.route, status: ok.status }).toEqual({ route: r.route, status: r.ok });
        await http().delete(`/api/tokens/${withCap.id}`).set(u.headers).expect(204);
        await http().delete(`/api/tokens/${withoutCap.id}`).set(u.headers).expect(204);
      }
    });

    it('whoami and testauth take any token; routes that name no capability take none', async () => {
      const none = await createToken(t.http, u.headers, []);
      const all = await createToken(t.http, u.headers, [...CAPABILITIES]);
      await http().get('/api/testauth').set(none.headers).expect(200);
      const me = await whoami(none.headers).expect(200);
      expect(me.body).toMatchObject({ UID: u.uid, User: u.name });
      for (const [method, path] of [
        ['put', '/api/logout'],
        ['delete', '/api/logout'],
      ] as const) {
        const res = await http()[method](path).set(all.headers).expect(403);
        expect(res.body).toEqual(errorBody('This API is not available to API tokens', 'API_NOT_FOR_TOKENS'));
      }
      await whoami(u.headers).expect(200); // the user's session survived
    });

    it("an admin's token holding every capability is refused on every admin route, and nothing changes", async () => {
      const victim = await createUser(t.http, admin);
      const adminTok = await createToken(t.http, admin, [...CAPABILITIES]);
      const adminRoutes: Array<['get' | 'put' | 'post' | 'delete', string, object?]> = [
        ['post', '/api/users', { User: 'made-by-token', Pass: 'password123', Name: 'x', Email: 'x@example.com', Admin: true }],
        ['put', `/api/users/${victim.uid}/lock`],
        ['delete', `/api/users/${victim.uid}/lock`],
        ['put', `/api/users/${victim.uid}/admin`],
        ['delete', `/api/users/1/admin`],
        ['post', `/api/users/${victim.uid}/group`, { GIDs: [gid] }],
        ['delete', `/api/users/${u.uid}/group/${gid}`],
        ['delete', `/api/users/${victim.uid}`],
        ['post', '/api/groups', { Name: 'made-by-token', Desc: '' }],
        ['put', `/api/groups/${gid}`, { Name: 'renamed-by-token' }],
        ['delete', `/api/groups/${gid}`],
        ['get', '/api/tokens/settings'],
        ['put', '/api/tokens/settings', { NonAdminTokens: false }],
      ];
      const declared = new Map(routeTable(t.app).map((r) => [`${r.method} ${r.path}`, describeDeclaration(r.declaration)]));
      expect([...declared.values()].filter((d) => d === 'admin').length).toBeGreaterThanOrEqual(adminRoutes.length);
      for (const [method, path, body] of adminRoutes) {
        const res = await http()[method](path).set(adminTok.headers).send(body);
        expect({ route: `${method} ${path}`, status: res.status, body: res.body }).toEqual({
          route: `${method} ${path}`,
          status: 403,
          body: errorBody(authErrors.adminNotForTokens, 'ADMIN_API_NOT_FOR_TOKENS'),
        });
      }
      await whoami(victim.headers).expect(200);
      const v = (await http().get(`/api/users/${victim.uid}`).set(admin).expect(200)).body;
      expect(v).toMatchObject({ Admin: false, Locked: false, Groups: [] });
      expect((await http().get(`/api/groups/${gid}/members`).set(admin).expect(200)).body.map((m: { UID: number }) => m.UID)).toEqual([u.uid]);
      expect((await http().get('/api/users').set(admin).expect(200)).body.map((x: { User: string }) => x.User)).not.toContain('made-by-token');
      expect((await http().get('/api/tokens/settings').set(admin).expect(200)).body).toEqual({ NonAdminTokens: true });
    });

    it('a session mints any capability the user has, with any expiry (contract, Authentication 7)', async () => {
      const wide = await createToken(t.http, u.headers, [...CAPABILITIES]);
      expect(wide.body.capabilities).toEqual([...CAPABILITIES]);
      expect(wide.body).not.toHaveProperty('expiresAt');
      await http().get('/api/tokens').set(wide.headers).expect(200);
    });

    it('tokens are not transitive: a token mints only within its own capabilities, and nothing is inherited', async () => {
      const minter = await createToken(t.http, u.headers, ['TokenWrite', 'ListUsers']);
      await http().get('/api/groups').set(minter.headers).expect(403);
      const child = await http()
        .post('/api/tokens')
        .set(minter.headers)
        .send({ name: 'child', capabilities: ['ListUsers'] })
        .expect(200);
      expect(child.body).toEqual({ ...record({ name: 'child', description: '', uid: u.uid, capabilities: ['ListUsers'] }), token: expect.any(String) });
      const childH = { 'Service-Token': child.body.token as string };
      await http().get('/api/users').set(childH).expect(200);
      await http().get('/api/tokens').set(childH).expect(403);
      await http().post('/api/tokens').set(childH).send({ name: 'grandchild', capabilities: [] }).expect(403);
      // Wider than itself: refused, and nothing is made.
      const before = (await http().get('/api/tokens').set(u.headers).expect(200)).body.length;
      const wide = await http()
        .post('/api/tokens')
        .set(minter.headers)
        .send({ name: 'wide', capabilities: [...CAPABILITIES] })
        .expect(403);
      expect(wide.body).toEqual(errorBody(tokenErrors.tokenLacks(CAPABILITIES.filter((c) => c !== 'TokenWrite' && c !== 'ListUsers')), 'TOKEN_LACKS_CAPABILITIES'));
      expect((await http().get('/api/tokens').set(u.headers).expect(200)).body).toHaveLength(before);
      // Changing another token: within its own capabilities only.
      await http()
        .put(`/api/tokens/${child.body.id}`)
        .set(minter.headers)
        .send({ capabilities: ['ListUsers', 'ListGroups'] })
        .expect(403);
      await http().get('/api/groups').set(childH).expect(403);
      await http()
        .put(`/api/tokens/${child.body.id}`)
        .set(minter.headers)
        .send({ capabilities: ['ListUsers', 'TokenWrite'] })
        .expect(200);
    });

    it('a narrow, short-lived token cannot widen itself or mint a wider or longer-lived token (issue 32, item 1)', async () => {
      const expiresAt = inMinutes(60);
      const narrow = await createToken(t.http, u.headers, ['TokenWrite'], { expiresAt });
      const full = await createToken(t.http, u.headers, [...CAPABILITIES]);
      // (a) create: every capability, or no expiry, or a later one: 403.
      const outlives = errorBody(tokenErrors.outlives(new Date(expiresAt).toISOString()), 'TOKEN_OUTLIVES_TOKEN');
      const cases: Array<[Record<string, unknown>, number]> = [
        [{ capabilities: [...CAPABILITIES] }, 403],
        [{ capabilities: ['TokenWrite'], expiresAt: null }, 403],
        [{ capabilities: ['TokenWrite'], expiresAt: '0001-01-01T00:00:00Z' }, 403],
        [{ capabilities: ['TokenWrite'], expiresAt: inMinutes(120) }, 403],
      ];
      for (const [body, status] of cases) {
        const res = await http()
          .post('/api/tokens')
          .set(narrow.headers)
          .send({ name: 'x', ...body });
        expect({ body, status: res.status }).toEqual({ body, status });
      }
      expect(
        (
          await http()
            .post('/api/tokens')
            .set(narrow.headers)
            .send({ name: 'x', capabilities: ['TokenWrite'], expiresAt: null })
        ).body,
      ).toEqual(outlives);
      // Absent expiry: the new token expires with its maker; an earlier one is kept.
      const same = await createToken(t.http, narrow.headers, ['TokenWrite']);
      expect(same.body.expiresAt).toBe(new Date(expiresAt).toISOString());
      const earlier = inMinutes(30);
      expect((await createToken(t.http, narrow.headers, [], { expiresAt: earlier })).body.expiresAt).toBe(new Date(earlier).toISOString());
      // (b) PUT its own record: more capabilities, no expiry or a later one: 403, unchanged.
      for (const body of [{ capabilities: [...CAPABILITIES] }, { expiresAt: null }, { expiresAt: inMinutes(120) }]) {
        const res = await http().put(`/api/tokens/${narrow.id}`).set(narrow.headers).send(body);
        expect({ body, status: res.status }).toEqual({ body, status: 403 });
      }
      const mine = (await http().get(`/api/tokens/${narrow.id}`).set(u.headers).expect(200)).body;
      expect(mine).toEqual(expect.objectContaining({ capabilities: ['TokenWrite'], expiresAt: new Date(expiresAt).toISOString() }));
      // (c) refresh itself with {} keeps its expiry; asking for "never" is 403.
      await http().patch(`/api/tokens/${narrow.id}`).set(narrow.headers).send({ expiresAt: null }).expect(403);
      const refreshed = await http().patch(`/api/tokens/${narrow.id}`).set(narrow.headers).send({}).expect(200);
      expect(refreshed.body.expiresAt).toBe(new Date(expiresAt).toISOString());
      // A wider token (every capability, never expires) cannot be changed or refreshed by it:
      // a refresh would hand it that token's new secret.
      const nowH = { 'Service-Token': refreshed.body.token as string };
      await http().patch(`/api/tokens/${full.id}`).set(nowH).send({}).expect(403);
      await http().put(`/api/tokens/${full.id}`).set(nowH).send({ name: 'mine now' }).expect(403);
      await http().get('/api/groups').set(full.headers).expect(200);
    });
  });

  describe("overlay on the owner's current rights", () => {
    it("a lock refuses the user's tokens with 401 at once; unlocking restores them", async () => {
      const u = await createUser(t.http, admin);
      const tok = await createToken(t.http, u.headers, ['ListUsers']);
      await http().get('/api/users').set(tok.headers).expect(200);
      await http().put(`/api/users/${u.uid}/lock`).set(admin).expect(200);
      expect((await http().get('/api/users').set(tok.headers).expect(401)).body).toEqual(errorBody('Account is locked', 'ACCOUNT_LOCKED'));
      await whoami(tok.headers).expect(401);
      await http().delete(`/api/users/${u.uid}/lock`).set(admin).expect(200);
      await http().get('/api/users').set(tok.headers).expect(200);
    });

    it("an admin's token never had admin power, before or after demotion", async () => {
      const a = await createUser(t.http, admin, { admin: true });
      const tok = await createToken(t.http, a.headers, ['TokenRead', 'ListUsers']);
      await http().get('/api/tokens?admin=true').set(a.headers).expect(200);
      await http().get('/api/tokens?admin=true').set(tok.headers).expect(403);
      await http().post(`/api/users/${a.uid}/group`).set(tok.headers).send({ GIDs: [] }).expect(403);
      await http().delete(`/api/users/${a.uid}/admin`).set(admin).expect(200);
      await http().get('/api/tokens?admin=true').set(a.headers).expect(403);
      await http().get('/api/tokens?admin=true').set(tok.headers).expect(403);
      await http().get('/api/tokens').set(tok.headers).expect(200);
      await http().get('/api/users').set(tok.headers).expect(200);
    });

    it('removal from a group takes the group away from the token at once', async () => {
      const u = await createUser(t.http, admin);
      const gid = await createGroup(t.http, admin);
      await addToGroup(t.http, admin, u.uid, gid);
      const tok = await createToken(t.http, u.headers, ['ListGroupMembers']);
      const members = await http().get(`/api/groups/${gid}/members`).set(tok.headers).expect(200);
      expect(members.body.map((m: { UID: number }) => m.UID)).toEqual([u.uid]);
      await http().delete(`/api/users/${u.uid}/group/${gid}`).set(admin).expect(200);
      await http().get(`/api/groups/${gid}/members`).set(tok.headers).expect(403);
      await addToGroup(t.http, admin, u.uid, gid);
      await http().get(`/api/groups/${gid}/members`).set(tok.headers).expect(200);
    });

    it("a deleted user's tokens are gone", async () => {
      const u = await createUser(t.http, admin);
      const tok = await createToken(t.http, u.headers, ['ListUsers']);
      await http().delete(`/api/users/${u.uid}`).set(admin).expect(200);
      await http().get('/api/users').set(tok.headers).expect(401);
      const row = await db.query(`SELECT count(*)::int AS n FROM api_token WHERE id = $1`, [tok.id]);
      expect(row.rows[0].n).toBe(0);
    });
  });

  describe('expiry and refresh', () => {
    it('an expired token is refused (401) but still listed; PATCH makes it usable with a new secret', async () => {
      const u = await createUser(t.http, admin);
      const expiresAt = new Date(Date.now() + 1500).toISOString();
      const tok = await createToken(t.http, u.headers, ['ListUsers'], { expiresAt });
      await http().get('/api/users').set(tok.headers).expect(200);
      await sleep(Math.max(0, Date.parse(expiresAt) - Date.now()) + 100);
      expect((await http().get('/api/users').set(tok.headers).expect(401)).body).toEqual(errorBody('API token has expired', 'API_TOKEN_EXPIRED'));
      const listed = await http().get('/api/tokens').set(u.headers).expect(200);
      expect(listed.body).toEqual([expect.objectContaining({ id: tok.id, expiresAt })]);

      await http().patch(`/api/tokens/${tok.id}`).set(u.headers).send({ expiresAt: '2001-01-01T00:00:00Z' }).expect(400);
      await http().patch(`/api/tokens/${tok.id}`).set(u.headers).send({ expiresAt: 'soon' }).expect(400);
      await http().patch(`/api/tokens/${tok.id}`).set(u.headers).send({ expiresAt: 7 }).expect(400);
      await http().get('/api/users').set(tok.headers).expect(401);

      const later = inMinutes(10);
      const refreshed = await http().patch(`/api/tokens/${tok.id}`).set(u.headers).send({ expiresAt: later }).expect(200);
      const { token: _old, ...rec } = tok.body;
      expect(refreshed.body).toEqual({ ...rec, expiresAt: later, lastUsedAt: expect.anything(), token: expect.stringMatching(/^sst_/) });
      expect(refreshed.body.token).not.toBe(tok.secret);
      await http().get('/api/users').set({ 'Service-Token': refreshed.body.token }).expect(200);
      expect((await http().get('/api/users').set(tok.headers).expect(401)).body).toEqual(errorBody(authErrors.replacedToken, 'API_TOKEN_REFRESHED'));

      const forever = await http().patch(`/api/tokens/${tok.id}`).set(u.headers).send({ expiresAt: null }).expect(200);
      expect(forever.body).not.toHaveProperty('expiresAt');
      await http().get('/api/users').set({ 'Service-Token': refreshed.body.token }).expect(401);
      await http().get('/api/users').set({ 'Service-Token': forever.body.token }).expect(200);
      const after = (await http().get(`/api/tokens/${tok.id}`).set(u.headers).expect(200)).body;
      expect(JSON.stringify(after)).not.toContain(forever.body.token);
    });

    it('non-object JSON bodies are a 400, never a 500 (a JSON null is an empty body)', async () => {
      const u = await createUser(t.http, admin);
      const tok = await createToken(t.http, u.headers, ['ListUsers']);
      await http().post('/api/tokens').set(u.headers).set('Content-Type', 'application/json').send('null').expect(400);
      await http().put(`/api/tokens/${tok.id}`).set(u.headers).set('Content-Type', 'application/json').send('null').expect(200);
      for (const raw of ['5', '"x"', 'true', '[]', '[{"name":"x"}]']) {
        for (const [method, path] of [
          ['post', '/api/tokens'],
          ['put', `/api/tokens/${tok.id}`],
          ['patch', `/api/tokens/${tok.id}`],
          ['put', '/api/tokens/settings'],
        ] as const) {
          const res = await http()
            [method](path)
            .set(path.endsWith('settings') ? admin : u.headers)
            .set('Content-Type', 'application/json')
            .send(raw);
          const message = path.endsWith('settings') ? invalidRequest(fieldErrors.boolean('NonAdminTokens')) : method === 'post' ? noTokenFields : requestErrors.notAnObject;
          expect({ raw, path, status: res.status, body: res.body }).toEqual({ raw, path, status: 400, body: errorBody(message, 'VALIDATION_FAILED') });
        }
      }
      await http().get('/api/users').set(tok.headers).expect(200);
    });

    it('PATCH without an expiry keeps the one the token had; null makes it never expire; an expired token needs a new one', async () => {
      const u = await createUser(t.http, admin);
      const expiresAt = inMinutes(5);
      const tok = await createToken(t.http, u.headers, ['ListUsers'], { expiresAt });
      const res = await http().patch(`/api/tokens/${tok.id}`).set(u.headers).expect(200);
      expect(res.body.expiresAt).toBe(new Date(expiresAt).toISOString());
      await http().get('/api/users').set({ 'Service-Token': res.body.token }).expect(200);
      const never = await http().patch(`/api/tokens/${tok.id}`).set(u.headers).send({ expiresAt: null }).expect(200);
      expect(never.body).not.toHaveProperty('expiresAt');
      await http().put(`/api/tokens/${tok.id}`).set(u.headers).send({ expiresAt: '2001-01-01T00:00:00Z' }).expect(200);
      expect((await http().patch(`/api/tokens/${tok.id}`).set(u.headers).send({}).expect(400)).body).toEqual(errorBody(tokenErrors.refreshExpired, 'TOKEN_EXPIRED'));
    });

    it('a token with TokenWrite can refresh itself; its old secret then stops working', async () => {
      const u = await createUser(t.http, admin);
      const tok = await createToken(t.http, u.headers, ['TokenWrite']);
      const res = await http()
        .patch(`/api/tokens/${tok.id}`)
        .set(tok.headers)
        .send({ expiresAt: inMinutes(5) })
        .expect(200);
      await http().patch(`/api/tokens/${tok.id}`).set(tok.headers).send({}).expect(401);
      await http().patch(`/api/tokens/${tok.id}`).set({ 'Service-Token': res.body.token }).send({}).expect(200);
    });
  });

  describe('credentials', () => {
    it('malformed, truncated, wrong-checksum and unknown tokens all get 401 with an Error body', async () => {
      const u = await createUser(t.http, admin);
      const good = (await createToken(t.http, u.headers, ['ListUsers'])).secret;
      const flipped = good.slice(0, 10) + (good[10] === 'A' ? 'B' : 'A') + good.slice(11);
      const jwt = u.headers.Authorization.slice('Bearer '.length);
      const values = [
        '',
        ' ',
        'garbage',
        'sst_',
        good.slice(0, -1),
        good.slice(0, 20),
        good + 'A',
        flipped,
        good.replace(/^sst_/, 'xxx_'),
        good.toUpperCase(),
        generateTokenSecret(),
        jwt,
        `Bearer ${good}`,
        'x'.repeat(8000),
        'sst_' + '!'.repeat(48),
      ];
      expect(isWellFormedTokenSecret(flipped)).toBe(false);
      for (const value of values) {
        const res = await http().get('/api/users').set('Service-Token', value);
        // Only a well-formed secret (checksum included) is looked up at all.
        const body = isWellFormedTokenSecret(value) ? errorBody(authErrors.unknownToken, 'UNKNOWN_API_TOKEN') : errorBody(authErrors.malformedToken, 'MALFORMED_API_TOKEN');
        expect({ value: value.slice(0, 60), status: res.status, body: res.body }).toEqual({ value: value.slice(0, 60), status: 401, body });
      }
      await http().get('/api/users').set('Service-Token', good).expect(200);
    });

    it('a JWT and a token header together are refused with 401, whichever is valid', async () => {
      const u = await createUser(t.http, admin);
      const tok = await createToken(t.http, u.headers, ['ListUsers']);
      const both = await http().get('/api/users').set(u.headers).set(tok.headers).expect(401);
      expect(both.body).toEqual(errorBody(tokenErrors.jwtAndToken, 'TOKEN_AND_JWT_SENT'));
      await http().get('/api/users').set({ Authorization: 'Bearer nonsense' }).set(tok.headers).expect(401);
      await http().get('/api/users').set(u.headers).set('Service-Token', 'garbage').expect(401);
      await http().get('/api/users').set(tok.headers).expect(200);
      await http().get('/api/users').set(u.headers).expect(200);
    });
  });

  describe('turning the token API off for non-admins', () => {
    afterAll(async () => {
      await http().put('/api/tokens/settings').set(admin).send({ NonAdminTokens: true });
    });

    it('only admins signed in read and change the setting', async () => {
      const u = await createUser(t.http, admin);
      expect((await http().get('/api/tokens/settings').set(admin).expect(200)).body).toEqual({ NonAdminTokens: true });
      await http().get('/api/tokens/settings').set(u.headers).expect(403);
      await http().put('/api/tokens/settings').set(u.headers).send({ NonAdminTokens: false }).expect(403);
      for (const body of [{}, { NonAdminTokens: 'no' }, { NonAdminTokens: null }, [true]]) {
        const res = await http().put('/api/tokens/settings').set(admin).send(body);
        expect({ body, status: res.status, res: res.body }).toEqual({
          body,
          status: 400,
          res: errorBody(invalidRequest(fieldErrors.boolean('NonAdminTokens')), 'VALIDATION_FAILED'),
        });
      }
      expect((await http().get('/api/tokens/settings').set(admin).expect(200)).body).toEqual({ NonAdminTokens: true });
    });

    it('when off, non-admins get 403 on the token API and their tokens stop working; admins keep both', async () => {
      const u = await createUser(t.http, admin);
      const a = await createUser(t.http, admin, { admin: true });
      const userTok = await createToken(t.http, u.headers, ['ListUsers', 'TokenRead']);
      const adminTok = await createToken(t.http, a.headers, ['ListUsers', 'TokenRead', 'TokenWrite']);

      await http().put('/api/tokens/settings').set(admin).send({ NonAdminTokens: false }).expect(200, { NonAdminTokens: false });
      expect((await http().get('/api/tokens/settings').set(admin).expect(200)).body).toEqual({ NonAdminTokens: false });

      for (const [method, path, body] of [
        ['get', '/api/tokens'],
        ['get', '/api/tokens/capabilities'],
        ['post', '/api/tokens', { name: 'x', capabilities: [] }],
        ['get', `/api/tokens/${userTok.id}`],
        ['put', `/api/tokens/${userTok.id}`, { name: 'y' }],
        ['patch', `/api/tokens/${userTok.id}`, {}],
        ['delete', `/api/tokens/${userTok.id}`],
      ] as Array<['get' | 'post' | 'put' | 'patch' | 'delete', string, object?]>) {
        const res = await http()[method](path).set(u.headers).send(body);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 403,
          body: errorBody('An admin has turned off API tokens for non-admin users', 'TOKENS_OFF_FOR_NON_ADMINS'),
        });
      }
      expect((await http().get('/api/users').set(userTok.headers).expect(401)).body).toEqual(errorBody('API tokens are turned off for non-admin users', 'API_TOKENS_TURNED_OFF'));
      await http().get('/api/users').set(u.headers).expect(200); // the user's session is unaffected

      await http().get('/api/users').set(adminTok.headers).expect(200);
      await http().get('/api/tokens').set(adminTok.headers).expect(200);
      await createToken(t.http, adminTok.headers, ['ListUsers']);
      await createToken(t.http, a.headers, ['ListUsers']);
      // Admins still manage the non-admin's tokens.
      await http().get(`/api/tokens/${userTok.id}`).set(admin).expect(200);

      // A demoted admin is a non-admin: their tokens stop too.
      await http().delete(`/api/users/${a.uid}/admin`).set(admin).expect(200);
      await http().get('/api/users').set(adminTok.headers).expect(401);
      await http().get('/api/tokens').set(a.headers).expect(403);

      await http().put('/api/tokens/settings').set(admin).send({ NonAdminTokens: true }).expect(200, { NonAdminTokens: true });
      await http().get('/api/users').set(userTok.headers).expect(200);
      await http().get('/api/users').set(adminTok.headers).expect(200);
      await http().get('/api/tokens').set(u.headers).expect(200);
    });

    it('the default comes from the tokensForNonAdmins config value', async () => {
      const t2 = await createTestApp({ tokensForNonAdmins: false });
      try {
        const admin2 = await asAdmin(t2.http);
        expect((await request(t2.http).get('/api/tokens/settings').set(admin2).expect(200)).body).toEqual({ NonAdminTokens: false });
        const u = await createUser(t2.http, admin2);
        await request(t2.http).post('/api/tokens').set(u.headers).send({ name: 'x', capabilities: [] }).expect(403);
        await createToken(t2.http, admin2, ['ListUsers']);
        await request(t2.http).put('/api/tokens/settings').set(admin2).send({ NonAdminTokens: true }).expect(200);
        const tok = await createToken(t2.http, u.headers, ['ListUsers']);
        await request(t2.http).get('/api/users').set(tok.headers).expect(200);
      } finally {
        await t2.close();
      }
    });
  });
});
