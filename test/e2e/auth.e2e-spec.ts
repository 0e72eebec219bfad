import * as jwt from 'jsonwebtoken';
import request from 'supertest';
import { ADMIN_PASSWORD, createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, login } from '../setup/auth';
import { authErrors, errorBody, requestErrors } from '../setup/errors';

const SESSION_ENDED = 'Session has ended; log in again';

describe('login and sessions', () => {
  let t: TestApp;
  let admin: Headers;

  beforeAll(async () => {
    t = await createTestApp({ loginMaxFailuresPerAccount: 3, loginMaxFailuresPerAddress: 1000 });
    admin = await asAdmin(t.http);
  });
  afterAll(() => t.close());

  it('answers /api/test and /api/version without authentication', async () => {
    await request(t.http).get('/api/test').expect(200);
    const v = await request(t.http).get('/api/version').expect(200);
    expect(v.body).toEqual({
      API: { Major: expect.any(Number), Minor: expect.any(Number) },
      Build: {
        Major: expect.any(Number),
        Minor: expect.any(Number),
        Point: expect.any(Number),
        BuildDate: expect.any(String),
        BuildID: expect.any(String),
        GUIBuildID: expect.any(String),
      },
    });
  });

  it('logs in with JSON and with form fields', async () => {
    const a = await request(t.http).post('/api/login').send({ User: 'admin', Pass: ADMIN_PASSWORD }).expect(200);
    expect(a.body).toEqual({ LoginStatus: true, JWT: expect.any(String) });
    const b = await request(t.http).post('/api/login').type('form').send({ User: 'admin', Pass: ADMIN_PASSWORD }).expect(200);
    expect(b.body.LoginStatus).toBe(true);
    const header = JSON.parse(Buffer.from(a.body.JWT.split('.')[0], 'base64url').toString());
    expect(header.alg).toBe('HS256');
  });

  it('refuses bad credentials with 422 and the product body', async () => {
    const u = await createUser(t.http, admin);
    const res = await request(t.http).post('/api/login').send({ User: u.name, Pass: 'wrong-password' }).expect(422);
    expect(res.body).toEqual({ LoginStatus: false, Reason: 'Invalid username or password', Error: 'Invalid username or password', Code: 'LOGIN_FAILED' });
    const unknown = await request(t.http).post('/api/login').send({ User: 'nobody-here', Pass: 'whatever' }).expect(422);
    expect(unknown.body.Reason).toBe(res.body.Reason);
  });

  it('refuses a locked account with 423 and ends its sessions at once', async () => {
    const u = await createUser(t.http, admin);
    await request(t.http).get('/api/info/whoami').set(u.headers).expect(200);
    await request(t.http).put(`/api/users/${u.uid}/lock`).set(admin).expect(200);
    expect((await request(t.http).get('/api/info/whoami').set(u.headers).expect(401)).body).toEqual(errorBody(SESSION_ENDED, 'SESSION_ENDED'));
    const res = await request(t.http).post('/api/login').send({ User: u.name, Pass: u.password }).expect(423);
    expect(res.body).toEqual({ LoginStatus: false, Reason: 'Account is locked', Error: 'Account is locked', Code: 'LOGIN_ACCOUNT_LOCKED' });
    await request(t.http).delete(`/api/users/${u.uid}/lock`).set(admin).expect(200);
    await login(t.http, u.name, u.password);
  });

  it('rate-limits failed logins per account with 429', async () => {
    const u = await createUser(t.http, admin);
    for (let i = 0; i < 3; i++) await request(t.http).post('/api/login').send({ User: u.name, Pass: 'bad-password' }).expect(422);
    const res = await request(t.http).post('/api/login').send({ User: u.name, Pass: u.password }).expect(429);
    expect(res.body).toEqual({ Error: expect.stringMatching(/^Too many failed logins/), Code: 'TOO_MANY_PASSWORD_ATTEMPTS' });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('shows an account blocked by failed logins to admins, who clear it by unlocking (issue 24, item 6)', async () => {
    const u = await createUser(t.http, admin);
    const other = await createUser(t.http, admin);
    const details = async (h: Headers) => (await request(t.http).get('/api/users').set(h).expect(200)).body.find((x: { UID: number }) => x.UID === u.uid);
    expect(await details(admin)).not.toHaveProperty('FailedLogins');
    await request(t.http).post('/api/login').send({ User: u.name, Pass: 'bad-password' }).expect(422);
    expect(await details(admin)).toEqual(expect.objectContaining({ Locked: false, FailedLogins: 1 }));
    expect(await details(admin)).not.toHaveProperty('LoginBlockedUntil');
    for (let i = 0; i < 2; i++) await request(t.http).post('/api/login').send({ User: u.name, Pass: 'bad-password' }).expect(422);
    await request(t.http).post('/api/login').send({ User: u.name, Pass: u.password }).expect(429);
    const blocked = await details(admin);
    expect(blocked).toEqual(expect.objectContaining({ Locked: false, FailedLogins: 3, LoginBlockedUntil: expect.any(String) }));
    expect(Date.parse(blocked.LoginBlockedUntil)).toBeGreaterThan(Date.now());
    expect((await request(t.http).get(`/api/users/${u.uid}`).set(admin).expect(200)).body.LoginBlockedUntil).toBe(blocked.LoginBlockedUntil);
    // Only admins see it.
    const seenByOther = await details(other.headers);
    expect(seenByOther).not.toHaveProperty('FailedLogins');
    expect(seenByOther).not.toHaveProperty('LoginBlockedUntil');
    // Unlocking means logins are allowed (contract): the block is cleared.
    await request(t.http).delete(`/api/users/${u.uid}/lock`).set(admin).expect(200);
    expect(await details(admin)).not.toHaveProperty('LoginBlockedUntil');
    await login(t.http, u.name, u.password);
  });

  it('rate-limits failed logins per client address', async () => {
    const t2 = await createTestApp({ loginMaxFailuresPerAccount: 1000, loginMaxFailuresPerAddress: 4 });
    try {
      for (let i = 0; i < 4; i++)
        await request(t2.http)
          .post('/api/login')
          .send({ User: `someone${i}`, Pass: 'bad-password' })
          .expect(422);
      await request(t2.http).post('/api/login').send({ User: 'admin', Pass: ADMIN_PASSWORD }).expect(429);
    } finally {
      await t2.close();
    }
  });

  it('gives 400 with an Error body for malformed or mistyped login bodies', async () => {
    const bad = await request(t.http).post('/api/login').set('Content-Type', 'application/json').send('{"User": ').expect(400);
    expect(bad.body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));
    const typed = await request(t.http)
      .post('/api/login')
      .send({ User: 5, Pass: ['x'] })
      .expect(400);
    expect(typed.body).toEqual({ Error: expect.stringMatching(/User/), Code: 'VALIDATION_FAILED' });
    await request(t.http).post('/api/login').send({}).expect(400);
  });

  it('refuses alg:none, bad signatures, expired tokens and ended sessions with 401', async () => {
    const u = await createUser(t.http, admin);
    const token = u.headers.Authorization.slice(7);
    const claims = jwt.decode(token) as Record<string, unknown>;
    const none = jwt.sign(claims, '', { algorithm: 'none' });
    await request(t.http).get('/api/info/whoami').set('Authorization', `Bearer ${none}`).expect(401);
    const forged = jwt.sign(claims, 'another-secret-another-secret-xx', { algorithm: 'HS256' });
    await request(t.http).get('/api/info/whoami').set('Authorization', `Bearer ${forged}`).expect(401);
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, t.config.jwtSecret!, { algorithm: 'HS256' });
    await request(t.http).get('/api/info/whoami').set('Authorization', `Bearer ${expired}`).expect(401);
    const r = await request(t.http).get('/api/info/whoami').set('Authorization', 'Bearer garbage').expect(401);
    expect(r.body).toEqual(errorBody(authErrors.invalidJwt, 'INVALID_JWT'));
    expect((await request(t.http).get('/api/info/whoami').expect(401)).body).toEqual(
      errorBody('Authentication required: send Authorization: Bearer <JWT> or a Service-Token', 'CREDENTIALS_REQUIRED'),
    );
    await request(t.http).put('/api/logout').set(u.headers).expect(200);
    expect((await request(t.http).get('/api/info/whoami').set(u.headers).expect(401)).body).toEqual(errorBody(SESSION_ENDED, 'SESSION_ENDED'));
  });

  it('PUT /api/logout ends only the current session; DELETE ends all', async () => {
    const u = await createUser(t.http, admin);
    const second = await login(t.http, u.name, u.password);
    const third = await login(t.http, u.name, u.password);
    const out = await request(t.http).put('/api/logout').set(u.headers).expect(200);
    expect(out.text).toBe('null');
    await request(t.http).get('/api/info/whoami').set(second).expect(200);
    await request(t.http).delete('/api/logout').set(second).expect(200);
    await request(t.http).get('/api/info/whoami').set(second).expect(401);
    await request(t.http).get('/api/info/whoami').set(third).expect(401);
  });

  it('lists sessions for self or admin only', async () => {
    const u = await createUser(t.http, admin);
    const other = await createUser(t.http, admin);
    const res = await request(t.http).get(`/api/users/${u.uid}/sessions`).set(u.headers).expect(200);
    expect(res.body).toEqual({
      UID: u.uid,
      User: u.name,
      Sessions: [{ LastHit: expect.any(String), Origin: expect.any(String), Synced: false, TempSession: false }],
    });
    await request(t.http).get(`/api/users/${u.uid}/sessions`).set(admin).expect(200);
    await request(t.http).get(`/api/users/${u.uid}/sessions`).set(other.headers).expect(403);
    await request(t.http).get(`/api/users/999999/sessions`).set(admin).expect(404);
  });

  it('returns whoami with Groups', async () => {
    const res = await request(t.http).get('/api/info/whoami').set(admin).expect(200);
    expect(res.body).toEqual({
      UID: 1,
      User: 'admin',
      Name: expect.any(String),
      Email: expect.any(String),
      Admin: true,
      Locked: false,
      TS: expect.any(String),
      Synced: false,
      Groups: [],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/hash|\$2[aby]\$/i);
  });
});
