import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { errorBody, limitErrors, notificationErrors, requestErrors } from '../setup/errors';
import { routeTable } from '../setup/route-table';

/**
 * Rules that hold on every route, proven by walking the real route table: numeric path IDs are
 * plain decimal digits, JSON nested past MAX_JSON_DEPTH is a 400 before anything reads it, and
 * `null` in an optional string field of an update is "empty" (or "unchanged"), never a 500.
 */
describe('input rules on every route', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
  });
  afterAll(() => t.close());

  const numericParams = /:(id|uid|gid)\b/;

  it('refuses 0x1, 1e0, +1 and " 1" as a numeric ID on every route that takes one, with 400', async () => {
    const routes = routeTable(t.app).filter((r) => numericParams.test(r.path) && !/dashboards\/:id$|searchctrl|tokens|notifications/.test(r.path));
    expect(routes.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const r of routes) {
      for (const bad of ['0x1', '1e0', '+1', '%201', '1%20']) {
        const path = r.path.replace(/:(id|uid|gid)\b/g, bad);
        const res = await request(t.http)[r.method.toLowerCase() as 'get'](path).set(admin).send({});
        if (res.status !== 400 || typeof res.body?.Error !== 'string') wrong.push(`${r.method} ${path} -> ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // The admin's own record is still there by its real ID.
    await request(t.http).get('/api/users/1/').set(admin).expect(200);
  });

  it('answers JSON nested past the limit with 400 on every route that reads a JSON body, and stores nothing', async () => {
    const deep = (levels: number) => `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const writes = routeTable(t.app).filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.path.startsWith('/services/') && !r.path.startsWith('/api/ingest'));
    expect(writes.length).toBeGreaterThan(20);
    const before = await request(t.http).get(`/api/users/${alice.uid}/preferences`).set(alice.headers).expect(200);
    const wrong: string[] = [];
    for (const r of writes) {
      const path = r.path.replace(/:(id|uid|gid)\b/g, String(alice.uid)).replace(/:[a-z_]+/gi, '00000000-0000-4000-8000-000000000000');
      for (const levels of [10_000, 200_000]) {
        const res = await request(t.http)[r.method.toLowerCase() as 'post'](path).set(admin).set('Content-Type', 'application/json').send(deep(levels));
        if (res.status >= 500 || typeof res.body?.Error !== 'string') wrong.push(`${r.method} ${path} (${levels} levels) -> ${res.status} ${res.text.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    const res = await request(t.http).put(`/api/users/${alice.uid}/preferences`).set(alice.headers).set('Content-Type', 'application/json').send(deep(100)).expect(400);
    expect(res.body).toEqual(errorBody(limitErrors.jsonDepth(), 'JSON_TOO_DEEP'));
    expect((await request(t.http).get(`/api/users/${alice.uid}/preferences`).set(alice.headers).expect(200)).body).toEqual(before.body);
    // Within the limit it is stored.
    await request(t.http).put(`/api/users/${alice.uid}/preferences`).set(alice.headers).set('Content-Type', 'application/json').send(deep(60)).expect(200);
  });

  it('refuses deep JSON inside JSON string fields (dashboard Data, library Metadata) with 400', async () => {
    const text = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const d = await request(t.http).post('/api/dashboards').set(alice.headers).send({ Name: 'deep', Data: text }).expect(400);
    expect(d.body).toEqual(errorBody(limitErrors.jsonDepth('Data'), 'JSON_TOO_DEEP'));
    const l = await request(t.http).post('/api/library').set(alice.headers).send({ Name: 'deep', Query: 'tag=x', Metadata: text }).expect(400);
    expect(l.body).toEqual(errorBody(limitErrors.jsonDepth('Metadata'), 'JSON_TOO_DEEP'));
  });
});

describe('what the product client sends and reads: null, "not set", and errors that name the real problem', () => {
  let t: TestApp;
  let admin: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
  });
  afterAll(() => t.close());

  it('treats a null token description as empty and a null name as unchanged (the product client sends null)', async () => {
    const made = await request(t.http)
      .post('/api/tokens')
      .set(admin)
      .send({ name: 'n', description: null, capabilities: ['Search'] })
      .expect(200);
    expect(made.body.description).toBe('');
    await request(t.http)
      .put(`/api/tokens/${made.body.id}`)
      .set(admin)
      .send({ name: 'renamed', description: 'd', capabilities: ['Search'] })
      .expect(200);
    const res = await request(t.http)
      .put(`/api/tokens/${made.body.id}`)
      .set(admin)
      .send({ name: null, description: null, capabilities: ['Search'] })
      .expect(200);
    expect(res.body).toEqual(expect.objectContaining({ name: 'renamed', description: '' }));
  });

  it('treats null as empty or unchanged on user, group, resource, file and notification updates', async () => {
    const u = await createUser(t.http, admin);
    const user = await request(t.http).put(`/api/users/${u.uid}`).set(admin).send({ User: null, Name: null, Email: null }).expect(200);
    expect(user.body).toEqual(expect.objectContaining({ User: u.name, Name: '', Email: '' }));

    const gid = await createGroup(t.http, admin);
    await request(t.http).put(`/api/groups/${gid}`).set(admin).send({ Name: null, Desc: null }).expect(200);
    const group = await request(t.http).get(`/api/groups/${gid}`).set(admin).expect(200);
    expect(group.body.Desc).toBe('');

    const resource = await request(t.http).post('/api/resources').set(admin).send({ ResourceName: 'res-null', Description: 'x' }).expect(200);
    const updated = await request(t.http)
      .put(`/api/resources/${resource.body.GUID}`)
      .set(admin)
      .send({ ...resource.body, ResourceName: null, Description: null })
      .expect(200);
    expect(updated.body).toEqual(expect.objectContaining({ ResourceName: 'res-null', Description: '' }));

    await request(t.http).post('/api/notifications/targeted').set(admin).send({ UID: u.uid, Msg: 'hello', Link: null }).expect(200);
    const notes = (await request(t.http).get('/api/notifications').set(u.headers).expect(200)).body as Record<string, { Msg: string; Link: string }>;
    const stored = Object.values(notes).find((n) => n.Msg === 'hello');
    expect(stored).toBeDefined();
    expect(stored).not.toHaveProperty('Link'); // an empty link is left out of the record
  });

  it('omits DefaultGID while no default search group is set, also after clearing it', async () => {
    const u = await createUser(t.http, admin);
    const g = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, u.uid, g);
    const read = async () => [
      (await request(t.http).get(`/api/users/${u.uid}`).set(u.headers).expect(200)).body,
      (await request(t.http).get('/api/info/whoami').set(u.headers).expect(200)).body,
    ];
    for (const body of await read()) expect(body).not.toHaveProperty('DefaultGID');
    await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(u.headers).send({ GID: g }).expect(200);
    for (const body of await read()) expect(body.DefaultGID).toBe(g);
    expect((await request(t.http).get('/api/users').set(u.headers).expect(200)).body.find((x: { UID: number }) => x.UID === u.uid).DefaultGID).toBe(g);
    await request(t.http).delete(`/api/users/${u.uid}/searchgroup`).set(u.headers).expect(200);
    for (const body of await read()) expect(body).not.toHaveProperty('DefaultGID');
  });

  it('takes UID 0 or GID 0 in a targeted notification as not set', async () => {
    const u = await createUser(t.http, admin);
    const g = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, u.uid, g);
    await request(t.http).post('/api/notifications/targeted').set(admin).send({ UID: u.uid, GID: 0, Msg: 'to the user' }).expect(200);
    await request(t.http).post('/api/notifications/targeted').set(admin).send({ UID: 0, GID: g, Msg: 'to the group' }).expect(200);
    const mine = (await request(t.http).get('/api/notifications').set(u.headers).expect(200)).body as Record<string, { Msg: string }>;
    expect(
      Object.values(mine)
        .map((n) => n.Msg)
        .sort(),
    ).toEqual(['to the group', 'to the user']);
    const none = await request(t.http).post('/api/notifications/targeted').set(admin).send({ UID: 0, GID: 0, Msg: 'nobody' }).expect(400);
    expect(none.body).toEqual(errorBody(notificationErrors.noTarget, 'NOTIFICATION_TARGET_REQUIRED'));
  });

  it('a missing GIDs list in POST /api/users/{id}/group says so, not that a value is too large', async () => {
    const u = await createUser(t.http, admin);
    const res = await request(t.http).post(`/api/users/${u.uid}/group`).set(admin).send({ GID: 1 }).expect(400);
    expect(res.body).toEqual(errorBody(requestErrors.invalidRequest('GIDs must be an array'), 'VALIDATION_FAILED'));
  });
});
