import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, login, TestUser } from '../setup/auth';
import { errorBody, limitErrors, originErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

/**
 * What an owner can do after a session or a secret was stolen, and what a thief can no longer
 * do with it: guess the password, keep tokens minted from the stolen session, or make a
 * signed-in browser send a cookie-authenticated write from another site.
 */
describe('responding to a stolen session or secret', () => {
  let t: TestApp;
  let admin: Headers;

  beforeAll(async () => {
    t = await createTestApp({ loginMaxFailuresPerAccount: 3 });
    admin = await asAdmin(t.http);
  });
  afterAll(() => t.close());

  const whoami = (h: Headers) => request(t.http).get('/api/info/whoami').set(h);

  it('limits guesses of the current password in a password change like logins (429, then even the right one waits)', async () => {
    const u = await createUser(t.http, admin);
    for (let i = 0; i < 3; i++) {
      await request(t.http)
        .put(`/api/users/${u.uid}/pwd`)
        .set(u.headers)
        .send({ OrigPass: `wrong-${i}-password`, NewPass: 'new-password-1' })
        .expect(403);
    }
    const blocked = await request(t.http).put(`/api/users/${u.uid}/pwd`).set(u.headers).send({ OrigPass: u.password, NewPass: 'new-password-1' }).expect(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body).toEqual(errorBody(limitErrors.wrongPasswords(Number(blocked.headers['retry-after'])), 'TOO_MANY_PASSWORD_ATTEMPTS'));
    // The password did not change, and a thief's guesses from one session do not lock the owner
    // out of changing it from another.
    const owner = await login(t.http, u.name, u.password);
    await request(t.http).put(`/api/users/${u.uid}/pwd`).set(owner).send({ OrigPass: u.password, NewPass: 'new-password-1' }).expect(200);
  });

  it('revokes the tokens minted by the sessions a password change ends, and keeps the rest', async () => {
    const u = await createUser(t.http, admin);
    const stolen = await login(t.http, u.name, u.password);
    const fromStolen = await createToken(t.http, stolen, ['TokenWrite', 'ListUsers']);
    const fromThatToken = await createToken(t.http, fromStolen.headers, ['ListUsers']);
    const fromOwner = await createToken(t.http, u.headers, ['ListUsers']);
    // A thief may mint a token and log out: the token must go all the same.
    const gone = await login(t.http, u.name, u.password);
    const fromGoneSession = await createToken(t.http, gone, ['ListUsers']);
    await request(t.http).put('/api/logout').set(gone).expect(200);
    for (const tok of [fromStolen, fromThatToken, fromOwner, fromGoneSession]) await whoami(tok.headers).expect(200);

    await request(t.http).put(`/api/users/${u.uid}/pwd`).set(u.headers).send({ OrigPass: u.password, NewPass: 'changed-password-1' }).expect(200);

    await whoami(stolen).expect(401);
    await whoami(fromStolen.headers).expect(401);
    await whoami(fromGoneSession.headers).expect(401);
    await whoami(fromThatToken.headers).expect(401);
    await whoami(fromOwner.headers).expect(200);
    await whoami(u.headers).expect(200);
  });

  it('revokes the tokens minted by sessions on "log out everywhere"', async () => {
    const u = await createUser(t.http, admin);
    const other = await login(t.http, u.name, u.password);
    const minted = await createToken(t.http, other, ['ListUsers']);
    await request(t.http).delete('/api/logout').set(u.headers).expect(200);
    await whoami(minted.headers).expect(401);
  });

  it("lets the owner revoke every token at once (DELETE /api/tokens), no one else's", async () => {
    const u = await createUser(t.http, admin);
    const bystander: TestUser = await createUser(t.http, admin);
    const mine = [await createToken(t.http, u.headers, ['ListUsers']), await createToken(t.http, u.headers, ['TokenWrite'])];
    const theirs = await createToken(t.http, bystander.headers, ['ListUsers']);
    const res = await request(t.http).delete('/api/tokens').set(u.headers).expect(200);
    expect(res.body).toEqual({ Revoked: 2 });
    for (const tok of mine) await whoami(tok.headers).expect(401);
    await whoami(theirs.headers).expect(200);
    expect((await request(t.http).get('/api/tokens').set(u.headers).expect(200)).body).toEqual([]);
    const narrow = await createToken(t.http, u.headers, ['ListUsers']);
    await request(t.http).delete('/api/tokens').set(narrow.headers).expect(403);
  });

  it("accepts a cookie-authenticated write only from this service's own origin", async () => {
    const jwt = admin.Authorization.replace('Bearer ', '');
    const importWith = (headers: Headers) =>
      request(t.http)
        .post('/api/searchctrl/import')
        .set({ Cookie: `token=${jwt}`, ...headers })
        .attach('file', Buffer.from('not an archive'), 'x.tar.gz');
    expect((await importWith({}).expect(403)).body).toEqual(errorBody(originErrors.missing, 'ORIGIN_REQUIRED'));
    expect((await importWith({ Origin: 'https://evil.example' }).expect(403)).body).toEqual(errorBody(originErrors.crossSite('https://evil.example'), 'CROSS_SITE_REQUEST'));
    await importWith({ Referer: 'https://evil.example/page' }).expect(403);
    // From the service's own origin (the Host it was sent to) the request is authenticated, and
    // then fails on the archive itself.
    const own = await importWith({ Host: 'search.example:8080', Origin: 'http://search.example:8080' }).expect(400);
    expect(own.body.Error).not.toMatch(/Origin|Cross-site/);
    await importWith({ Host: 'search.example:8080', Referer: 'https://search.example:8080/search' }).expect(400);
  });
});
