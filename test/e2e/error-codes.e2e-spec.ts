import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';
import { errorBody, requestErrors, userErrors } from '../setup/errors';

/** Every refusal answers `{"Error": message, "Code": code}` (src/common/errors/codes.ts), whatever refused it. */
describe('error codes', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ maxJsonBody: 2048 });
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
  });
  afterAll(() => t.close());

  it('401: no credentials', async () => {
    const res = await request(t.http).get('/api/info/whoami').expect(401);
    expect(res.body).toEqual(errorBody('Authentication required: send Authorization: Bearer <JWT> or a Service-Token', 'CREDENTIALS_REQUIRED'));
  });

  it("403: a non-admin acting on another's account", async () => {
    const res = await request(t.http).get(`/api/users/${bob.uid}/sessions`).set(alice.headers).expect(403);
    expect(res.body).toEqual(errorBody('Non-admins may list only their own sessions', 'OWN_SESSIONS_ONLY'));
  });

  it('404: an object that does not exist, and a route that does not exist', async () => {
    const user = await request(t.http).get('/api/users/999999').set(admin).expect(404);
    expect(user.body).toEqual(errorBody(userErrors.notFound, 'USER_NOT_FOUND'));
    const route = await request(t.http).get('/api/no-such-route').set(admin).expect(404);
    expect(route.body).toEqual(errorBody(requestErrors.noSuchRoute, 'ROUTE_NOT_FOUND'));
  });

  it('400: the validation pipe, a bad path ID and malformed JSON', async () => {
    const invalid = await request(t.http).get('/api/searchhistory?admin=maybe').set(admin).expect(400);
    expect(invalid.body).toEqual(errorBody(requestErrors.notBoolean('admin'), 'VALIDATION_FAILED'));
    const id = await request(t.http).get('/api/users/x1').set(admin).expect(400);
    expect(id.body).toEqual(errorBody(requestErrors.invalidId('x1'), 'INVALID_ID'));
    const json = await request(t.http).post('/api/users').set(admin).set('Content-Type', 'application/json').send('{"User": ').expect(400);
    expect(json.body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));
  });

  it('409: a name already taken', async () => {
    const res = await request(t.http)
      .post('/api/users')
      .set(admin)
      .send({ User: alice.name, Pass: 'a-long-enough-password', Name: 'x', Email: 'x@example.com', Admin: false })
      .expect(409);
    expect(res.body).toEqual(errorBody(userErrors.exists(alice.name), 'USER_ALREADY_EXISTS'));
  });

  it('413: a JSON body over MAX_JSON_BODY', async () => {
    const res = await request(t.http)
      .post('/api/users')
      .set(admin)
      .send({ User: 'x', Name: 'y'.repeat(4096) })
      .expect(413);
    expect(res.body).toEqual(errorBody(requestErrors.jsonBodyTooLarge('2 KiB'), 'BODY_TOO_LARGE'));
  });
});
