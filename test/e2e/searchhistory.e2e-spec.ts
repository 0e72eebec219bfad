import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';
import { createToken } from '../setup/tokens';

const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-02T00:00:00Z' };

describe('search history', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;
  let bob: TestUser;

  const launch = async (h: Headers, q: string, extra: Record<string, unknown> = {}) => {
    const r = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(h)
      .send({ SearchString: q, ...RANGE, ...extra });
    expect(r.status).toBe(200);
    await request(t.http).put(`/api/searchctrl/${r.body.SearchID}/detach?sid=${r.body.SearchSessionID}`).set(h).expect(200);
    return r.body as { Info: { EffectiveQuery: string } };
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
    await launch(alice.headers, 'tag=hist grep one');
    await launch(alice.headers, 'tag=hist grep two');
    await launch(alice.headers, 'tag=hist grep secret', { NoHistory: true });
    await launch(alice.headers, 'tag=hist grep three');
    await launch(bob.headers, 'tag=hist grep bobs');
  });
  afterAll(() => t.close());

  it('lists own launches, most recent first, without NoHistory searches', async () => {
    const r = await request(t.http).get('/api/searchhistory').set(alice.headers).expect(200);
    expect(r.body.map((h: { UserQuery: string }) => h.UserQuery)).toEqual(['tag=hist grep three', 'tag=hist grep two', 'tag=hist grep one']);
    expect(r.body[0]).toEqual({
      UID: alice.uid,
      GID: 0,
      GIDs: [],
      Global: false,
      UserQuery: 'tag=hist grep three',
      EffectiveQuery: expect.stringContaining('grep three'),
      Launched: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      Synced: true,
    });
  });

  it('filters with refine and pages with start/end (0 = most recent)', async () => {
    const refine = await request(t.http).get('/api/searchhistory?refine=TWO').set(alice.headers).expect(200);
    expect(refine.body.map((h: { UserQuery: string }) => h.UserQuery)).toEqual(['tag=hist grep two']);
    const pct = await request(t.http).get('/api/searchhistory?refine=%25').set(alice.headers).expect(200);
    expect(pct.body).toEqual([]);
    const page = await request(t.http).get('/api/searchhistory?start=1&end=2').set(alice.headers).expect(200);
    expect(page.body.map((h: { UserQuery: string }) => h.UserQuery)).toEqual(['tag=hist grep two']);
    const tail = await request(t.http).get('/api/searchhistory?start=2').set(alice.headers).expect(200);
    expect(tail.body.map((h: { UserQuery: string }) => h.UserQuery)).toEqual(['tag=hist grep one']);
    await request(t.http).get('/api/searchhistory?start=3&end=1').set(alice.headers).expect(400);
    await request(t.http).get('/api/searchhistory?start=-1').set(alice.headers).expect(400);
    await request(t.http).get('/api/searchhistory?start=abc').set(alice.headers).expect(400);
    await request(t.http)
      .get(`/api/searchhistory?refine=${'x'.repeat(2000)}`)
      .set(alice.headers)
      .expect(400);
  });

  it('admin=true shows everyone to admins only; user/{uid} is self or admin', async () => {
    const all = await request(t.http).get('/api/searchhistory?admin=true').set(admin).expect(200);
    const queries = all.body.map((h: { UserQuery: string }) => h.UserQuery);
    expect(queries).toEqual(expect.arrayContaining(['tag=hist grep bobs', 'tag=hist grep one']));
    expect(queries).not.toContain('tag=hist grep secret');
    await request(t.http).get('/api/searchhistory?admin=true').set(bob.headers).expect(403);
    const own = await request(t.http).get(`/api/searchhistory/user/${bob.uid}`).set(bob.headers).expect(200);
    expect(own.body.map((h: { UserQuery: string }) => h.UserQuery)).toEqual(['tag=hist grep bobs']);
    await request(t.http).get(`/api/searchhistory/user/${alice.uid}`).set(bob.headers).expect(403);
    const byAdmin = await request(t.http).get(`/api/searchhistory/user/${alice.uid}?refine=one`).set(admin).expect(200);
    expect(byAdmin.body.map((h: { UserQuery: string }) => h.UserQuery)).toEqual(['tag=hist grep one']);
    await request(t.http).get('/api/searchhistory/user/999999').set(admin).expect(404);
    await request(t.http).get('/api/searchhistory/user/abc').set(admin).expect(400);
    await request(t.http).get('/api/searchhistory').expect(401);
  });

  it('needs the SearchHistory capability for tokens', async () => {
    const yes = await createToken(t.http, alice.headers, ['SearchHistory']);
    const no = await createToken(t.http, alice.headers, ['Search']);
    expect((await request(t.http).get('/api/searchhistory').set(yes.headers).expect(200)).body).toHaveLength(3);
    await request(t.http).get('/api/searchhistory').set(no.headers).expect(403);
  });
});
