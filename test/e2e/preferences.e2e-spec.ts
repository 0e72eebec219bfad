import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, preferenceErrors, requestErrors, userErrors } from '../setup/errors';
import { formatBytes } from '../../src/common/errors/app-error';
import { createToken } from '../setup/tokens';

describe('user preferences', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;
  let bob: TestUser;
  const ADMIN_UID = 1;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
  });
  afterAll(() => t.close());

  const get = (h: Headers, uid: number) => request(t.http).get(`/api/users/${uid}/preferences`).set(h);
  const put = (h: Headers, uid: number, body: string) => request(t.http).put(`/api/users/${uid}/preferences`).set(h).set('Content-Type', 'application/json').send(body);

  it('answers null when nothing is stored, as JSON', async () => {
    const res = await get(alice.headers, alice.uid).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.text).toBe('null');
  });

  it('stores any JSON value with PUT (creating, then replacing) and returns it as stored', async () => {
    const values = ['{"theme":"dark","nested":{"b":1,"a":[1,2,{"x":null}]}}', '[1,"two",false]', '"just a string"', '42', 'true', '{}', 'null'];
    for (const v of values) {
      const r = await put(alice.headers, alice.uid, v).expect(200);
      expect(r.text).toBe('null');
      const back = await get(alice.headers, alice.uid).expect(200);
      expect(back.headers['content-type']).toMatch(/application\/json/);
      expect(JSON.parse(back.text)).toEqual(JSON.parse(v));
    }
    // key order is kept as sent
    await put(alice.headers, alice.uid, '{"z":1,"a":2}').expect(200);
    expect((await get(alice.headers, alice.uid)).text).toBe('{"z":1,"a":2}');
  });

  it('deletes (idempotently) and then answers null; DELETE answers a JSON body', async () => {
    await put(bob.headers, bob.uid, '{"a":1}').expect(200);
    const del = await request(t.http).delete(`/api/users/${bob.uid}/preferences`).set(bob.headers).expect(200);
    expect(del.text).toBe('null');
    expect((await get(bob.headers, bob.uid).expect(200)).text).toBe('null');
    await request(t.http).delete(`/api/users/${bob.uid}/preferences`).set(bob.headers).expect(200);
  });

  it('never accepts POST', async () => {
    const res = await request(t.http).post(`/api/users/${alice.uid}/preferences`).set(alice.headers).send({ a: 1 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(errorBody(requestErrors.noSuchRoute, 'ROUTE_NOT_FOUND'));
  });

  describe('access', () => {
    let owner: TestUser;
    let other: TestUser;
    beforeAll(async () => {
      owner = await createUser(t.http, admin);
      other = await createUser(t.http, admin);
      await put(owner.headers, owner.uid, '{"mine":true}').expect(200);
    });

    it("a non-admin gets 403 on another user's preferences (GET, PUT, DELETE) and they stay unchanged", async () => {
      expect((await get(other.headers, owner.uid).expect(403)).body).toEqual(errorBody(preferenceErrors.ownOnly, 'OWN_PREFERENCES_ONLY'));
      expect((await put(other.headers, owner.uid, '{"hacked":1}').expect(403)).body).toEqual(errorBody(preferenceErrors.ownOnly, 'OWN_PREFERENCES_ONLY'));
      const del = await request(t.http).delete(`/api/users/${owner.uid}/preferences`).set(other.headers).expect(403);
      expect(del.body).toEqual(errorBody(preferenceErrors.ownOnly, 'OWN_PREFERENCES_ONLY'));
      expect((await get(owner.headers, owner.uid).expect(200)).body).toEqual({ mine: true });
    });

    it("an admin reads, writes and deletes anyone's preferences, and the own", async () => {
      expect((await get(admin, owner.uid).expect(200)).body).toEqual({ mine: true });
      await put(admin, other.uid, '{"set":"by admin"}').expect(200);
      expect((await get(other.headers, other.uid).expect(200)).body).toEqual({ set: 'by admin' });
      await request(t.http).delete(`/api/users/${other.uid}/preferences`).set(admin).expect(200);
      expect((await get(other.headers, other.uid).expect(200)).text).toBe('null');
      await put(admin, ADMIN_UID, '["admin"]').expect(200);
      expect((await get(admin, ADMIN_UID).expect(200)).body).toEqual(['admin']);
    });

    it('a user that does not exist is 404, for admins and non-admins alike (checked before access)', async () => {
      for (const h of [admin, other.headers]) {
        expect((await get(h, 999999).expect(404)).body).toEqual(errorBody(userErrors.notFound, 'USER_NOT_FOUND'));
        expect((await put(h, 999999, '{}').expect(404)).body).toEqual(errorBody(userErrors.notFound, 'USER_NOT_FOUND'));
        expect((await request(t.http).delete('/api/users/999999/preferences').set(h).expect(404)).body).toEqual(errorBody(userErrors.notFound, 'USER_NOT_FOUND'));
      }
    });

    it('requires authentication', async () => {
      await request(t.http).get(`/api/users/${owner.uid}/preferences`).expect(401);
      await request(t.http).put(`/api/users/${owner.uid}/preferences`).send({}).expect(401);
      await request(t.http).delete(`/api/users/${owner.uid}/preferences`).expect(401);
      await request(t.http).get('/api/users/preferences').expect(401);
    });

    it('API tokens: without PreferencesRead 403 on GET, without PreferencesWrite 403 on PUT/DELETE; stored value unchanged', async () => {
      const none = await createToken(t.http, owner.headers, ['DashboardRead']);
      expect((await get(none.headers, owner.uid).expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('PreferencesRead'), 'API_TOKEN_LACKS_CAPABILITY'));
      const ro = await createToken(t.http, owner.headers, ['PreferencesRead']);
      expect((await get(ro.headers, owner.uid).expect(200)).body).toEqual({ mine: true });
      expect((await put(ro.headers, owner.uid, '{"x":1}').expect(403)).body).toEqual(errorBody(authErrors.tokenLacks('PreferencesWrite'), 'API_TOKEN_LACKS_CAPABILITY'));
      expect((await request(t.http).delete(`/api/users/${owner.uid}/preferences`).set(ro.headers).expect(403)).body).toEqual(
        errorBody(authErrors.tokenLacks('PreferencesWrite'), 'API_TOKEN_LACKS_CAPABILITY'),
      );
      expect((await get(owner.headers, owner.uid).expect(200)).body).toEqual({ mine: true });
      const rw = await createToken(t.http, owner.headers, ['PreferencesRead', 'PreferencesWrite']);
      await put(rw.headers, owner.uid, '{"mine":true,"token":1}').expect(200);
      expect((await get(owner.headers, owner.uid).expect(200)).body).toEqual({ mine: true, token: 1 });
      await put(rw.headers, owner.uid, '{"mine":true}').expect(200);
      // a token of another user with both capabilities is still that user: 403
      const otherTok = await createToken(t.http, other.headers, ['PreferencesRead', 'PreferencesWrite']);
      await get(otherTok.headers, owner.uid).expect(403);
    });

    it("an admin's token has no admin rights: 403 on others' preferences and on the admin listing", async () => {
      const tok = await createToken(t.http, admin, ['PreferencesRead', 'PreferencesWrite']);
      expect((await get(tok.headers, owner.uid).expect(403)).body).toEqual(errorBody(preferenceErrors.ownOnly, 'OWN_PREFERENCES_ONLY'));
      expect((await put(tok.headers, owner.uid, '{}').expect(403)).body).toEqual(errorBody(preferenceErrors.ownOnly, 'OWN_PREFERENCES_ONLY'));
      expect((await request(t.http).get('/api/users/preferences').set(tok.headers).expect(403)).body).toEqual(errorBody(authErrors.adminNotForTokens, 'ADMIN_API_NOT_FOR_TOKENS'));
      await get(tok.headers, ADMIN_UID).expect(200);
      expect((await get(owner.headers, owner.uid).expect(200)).body).toEqual({ mine: true });
    });
  });

  describe('bad input', () => {
    it('refuses malformed JSON, non-JSON bodies and empty bodies; the stored value is unchanged', async () => {
      const u = await createUser(t.http, admin);
      await put(u.headers, u.uid, '{"keep":1}').expect(200);
      expect((await put(u.headers, u.uid, '{"broken":').expect(400)).body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));
      const text = await request(t.http).put(`/api/users/${u.uid}/preferences`).set(u.headers).set('Content-Type', 'text/plain').send('{"a":1}').expect(415);
      expect(text.body).toEqual(errorBody(preferenceErrors.jsonContentType, 'PREFERENCES_NOT_JSON'));
      const form = await request(t.http).put(`/api/users/${u.uid}/preferences`).set(u.headers).type('form').send({ a: '1' }).expect(415);
      expect(form.body).toEqual(errorBody(preferenceErrors.jsonContentType, 'PREFERENCES_NOT_JSON'));
      const none = await request(t.http).put(`/api/users/${u.uid}/preferences`).set(u.headers).expect(415);
      expect(none.body).toEqual(errorBody(preferenceErrors.jsonContentType, 'PREFERENCES_NOT_JSON'));
      const empty = await request(t.http).put(`/api/users/${u.uid}/preferences`).set(u.headers).set('Content-Type', 'application/json').send('').expect(400);
      expect(empty.body).toEqual(errorBody(preferenceErrors.emptyBody, 'PREFERENCES_BODY_EMPTY'));
      expect((await get(u.headers, u.uid).expect(200)).body).toEqual({ keep: 1 });
    });

    it('refuses a body over the JSON limit with 413', async () => {
      const u = await createUser(t.http, admin);
      const huge = JSON.stringify({ s: 'x'.repeat(t.config.maxJsonBody + 10) });
      expect((await put(u.headers, u.uid, huge).expect(413)).body).toEqual(errorBody(requestErrors.jsonBodyTooLarge(formatBytes(t.config.maxJsonBody)), 'BODY_TOO_LARGE'));
      expect((await get(u.headers, u.uid).expect(200)).text).toBe('null');
    });

    it('refuses invalid user IDs with 400', async () => {
      for (const id of ['abc', '-1', '0', '1.5', '99999999999']) {
        const res = await request(t.http).get(`/api/users/${id}/preferences`).set(admin);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(errorBody(requestErrors.invalidId(id), 'INVALID_ID'));
      }
    });

    it('stores hostile strings and odd unicode verbatim', async () => {
      const u = await createUser(t.http, admin);
      const v = { s: "'; DROP TABLE user_preference; --", nul: '\u0000', emoji: '\u{1F600}', rtl: '\u202Eabc' };
      await put(u.headers, u.uid, JSON.stringify(v)).expect(200);
      expect((await get(u.headers, u.uid).expect(200)).body).toEqual(v);
    });
  });

  describe('admin listing GET /api/users/preferences', () => {
    it("lists every user's records with base64 Data", async () => {
      const u = await createUser(t.http, admin);
      await put(u.headers, u.uid, '{"list":"me"}').expect(200);
      const res = await request(t.http).get('/api/users/preferences').set(admin).expect(200);
      expect(Array.isArray(res.body)).toBe(true);
      const mine = res.body.filter((r: { UID: number }) => r.UID === u.uid);
      expect(mine).toEqual([{ Data: Buffer.from('{"list":"me"}').toString('base64'), Name: 'prefs', Synced: false, UID: u.uid, Updated: expect.any(String) }]);
      expect(new Date(mine[0].Updated).toISOString()).toBe(mine[0].Updated);
      for (const r of res.body) expect(['prefs', 'emailSettings']).toContain(r.Name);
    });

    it('includes emailSettings records stored in the same table', async () => {
      const u = await createUser(t.http, admin);
      // No API writes email settings (the contract shows none); the table holds the kind.
      const { DataSource } = await import('typeorm');
      const ds = t.app.get(DataSource);
      await ds.query(`INSERT INTO user_preference (uid, name, data) VALUES ($1, 'emailSettings', '{"Server":"smtp"}')`, [u.uid]);
      const res = await request(t.http).get('/api/users/preferences').set(admin).expect(200);
      expect(res.body.filter((r: { UID: number }) => r.UID === u.uid)).toEqual([
        { Data: Buffer.from('{"Server":"smtp"}').toString('base64'), Name: 'emailSettings', Synced: false, UID: u.uid, Updated: expect.any(String) },
      ]);
      // the user's own preferences are unaffected by the other kind
      expect((await get(u.headers, u.uid).expect(200)).text).toBe('null');
    });

    it('is admin only', async () => {
      const u = await createUser(t.http, admin);
      const res = await request(t.http).get('/api/users/preferences').set(u.headers).expect(403);
      expect(res.body).toEqual(errorBody(authErrors.adminOnly, 'ADMIN_ONLY'));
    });

    it("a deleted user's preferences go with the account", async () => {
      const u = await createUser(t.http, admin);
      await put(u.headers, u.uid, '{"gone":1}').expect(200);
      await request(t.http).delete(`/api/users/${u.uid}`).set(admin).expect(200);
      const res = await request(t.http).get('/api/users/preferences').set(admin).expect(200);
      expect(res.body.filter((r: { UID: number }) => r.UID === u.uid)).toEqual([]);
    });
  });
});
