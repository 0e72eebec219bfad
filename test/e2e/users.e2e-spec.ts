import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, login, TestUser } from '../setup/auth';
import { errorBody, requestErrors, userErrors } from '../setup/errors';

const userDetails = (u: Partial<Record<string, unknown>> = {}) => ({
  UID: expect.any(Number),
  User: expect.any(String),
  Name: expect.any(String),
  Email: expect.any(String),
  Admin: false,
  Locked: false,
  TS: expect.any(String),
  Synced: false,
  Groups: [],
  ...u,
});

describe('users', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
  });
  afterAll(() => t.close());

  describe('reading', () => {
    it('lists every account, without password hashes', async () => {
      const res = await request(t.http).get('/api/users').set(alice.headers).expect(200);
      expect(res.body.map((u: { UID: number }) => u.UID)).toEqual(expect.arrayContaining([1, alice.uid, bob.uid]));
      expect(res.body.find((u: { UID: number }) => u.UID === alice.uid)).toEqual(userDetails({ UID: alice.uid, User: alice.name, Email: `${alice.name}@example.com` }));
      expect(JSON.stringify(res.body)).not.toMatch(/\$2[aby]\$|hash/i);
    });

    it('lets users read only their own details; admins any; trailing slash is the same', async () => {
      await request(t.http).get(`/api/users/${alice.uid}`).set(alice.headers).expect(200);
      await request(t.http).get(`/api/users/${alice.uid}/`).set(alice.headers).expect(200);
      await request(t.http).get(`/api/users/${bob.uid}`).set(alice.headers).expect(403);
      await request(t.http).get(`/api/users/${bob.uid}`).set(admin).expect(200);
      await request(t.http).get('/api/users/99999').set(admin).expect(404);
    });

    it('refuses bad IDs with 400', async () => {
      for (const id of ['-1', '0', 'abc', '1.5', '99999999999', '1e3', '%00']) {
        const res = await request(t.http).get(`/api/users/${id}`).set(admin);
        expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 400, body: errorBody(requestErrors.invalidId(decodeURIComponent(id)), 'INVALID_ID') });
      }
    });
  });

  describe('creating', () => {
    it('is admin only and answers the new UID', async () => {
      const body = { User: 'carol_create', Pass: 'carol-password', Name: 'Carol', Email: 'c@example.com', Admin: false };
      await request(t.http).post('/api/users').set(alice.headers).send(body).expect(403);
      const res = await request(t.http).post('/api/users').set(admin).send(body).expect(200);
      expect(res.body).toEqual(expect.any(Number));
      await login(t.http, 'carol_create', 'carol-password');
      const dup = await request(t.http)
        .post('/api/users')
        .set(admin)
        .send({ ...body, User: 'CAROL_create' })
        .expect(409);
      expect(dup.body).toEqual(errorBody(userErrors.exists('CAROL_create'), 'USER_ALREADY_EXISTS'));
    });

    it('requires every field with the right type', async () => {
      const base = { User: 'dave_fields', Pass: 'dave-password', Name: 'Dave', Email: 'd@example.com', Admin: false };
      for (const key of Object.keys(base)) {
        const body: Record<string, unknown> = { ...base };
        delete body[key];
        const res = await request(t.http).post('/api/users').set(admin).send(body).expect(400);
        expect(res.body.Error).toContain(key);
      }
      await request(t.http)
        .post('/api/users')
        .set(admin)
        .send({ ...base, Admin: 'yes' })
        .expect(400);
      await request(t.http)
        .post('/api/users')
        .set(admin)
        .send({ ...base, Pass: 'short' })
        .expect(400);
      await request(t.http)
        .post('/api/users')
        .set(admin)
        .send({ ...base, User: '../etc' })
        .expect(400);
      await request(t.http)
        .post('/api/users')
        .set(admin)
        .send({ ...base, Name: 'x'.repeat(1_000_000) })
        .expect((r) => expect([400, 413]).toContain(r.status));
      await request(t.http).post('/api/users').set(admin).send([base]).expect(400);
      await request(t.http).post('/api/users').set(admin).set('Content-Type', 'application/json').send('"just a string"').expect(400);
      const list = await request(t.http).get('/api/users').set(admin).expect(200);
      expect(list.body.some((u: { User: string }) => u.User === 'dave_fields')).toBe(false);
    });
  });

  describe('updating', () => {
    it('lets users change their own Name and Email; unpopulated fields are ignored', async () => {
      const u = await createUser(t.http, admin);
      const res = await request(t.http).put(`/api/users/${u.uid}`).set(u.headers).send({ Name: 'New Name', Synced: true, UID: 999 }).expect(200);
      expect(res.body).toEqual(userDetails({ UID: u.uid, User: u.name, Name: 'New Name', Email: `${u.name}@example.com` }));
    });

    it('rejects a non-admin changing another account, or their own admin flag', async () => {
      await request(t.http).put(`/api/users/${bob.uid}`).set(alice.headers).send({ Name: 'Hacked' }).expect(403);
      await request(t.http).put(`/api/users/${alice.uid}`).set(alice.headers).send({ Admin: true }).expect(403);
      const b = await request(t.http).get(`/api/users/${bob.uid}`).set(admin).expect(200);
      expect(b.body.Name).toBe(`Name ${bob.name}`);
    });

    it('lets admins rename others but never the default admin', async () => {
      const u = await createUser(t.http, admin);
      const res = await request(t.http)
        .put(`/api/users/${u.uid}`)
        .set(admin)
        .send({ User: `${u.name}_renamed` })
        .expect(200);
      expect(res.body.User).toBe(`${u.name}_renamed`);
      await request(t.http).put('/api/users/1').set(admin).send({ User: 'root' }).expect(403);
      await request(t.http).put(`/api/users/${u.uid}`).set(admin).send({ User: alice.name }).expect(409);
    });
  });

  describe('passwords', () => {
    it('needs the right OrigPass for your own account and ends your other sessions', async () => {
      const u = await createUser(t.http, admin);
      const other = await login(t.http, u.name, u.password);
      await request(t.http).put(`/api/users/${u.uid}/pwd`).set(u.headers).send({ NewPass: 'new-password-1' }).expect(400);
      await request(t.http).put(`/api/users/${u.uid}/pwd`).set(u.headers).send({ OrigPass: 'wrong', NewPass: 'new-password-1' }).expect(403);
      await request(t.http).put(`/api/users/${u.uid}/pwd`).set(u.headers).send({ OrigPass: u.password, NewPass: 'new-password-1' }).expect(200);
      await request(t.http).get('/api/info/whoami').set(u.headers).expect(200);
      await request(t.http).get('/api/info/whoami').set(other).expect(401);
      await login(t.http, u.name, 'new-password-1');
      await request(t.http).post('/api/login').send({ User: u.name, Pass: u.password }).expect(422);
    });

    it('lets an admin set another account without OrigPass; a user cannot set another', async () => {
      const u = await createUser(t.http, admin);
      await request(t.http).put(`/api/users/${u.uid}/pwd`).set(alice.headers).send({ OrigPass: alice.password, NewPass: 'stolen-password' }).expect(403);
      await request(t.http).put(`/api/users/${u.uid}/pwd`).set(admin).send({ NewPass: 'admin-set-password' }).expect(200);
      await login(t.http, u.name, 'admin-set-password');
      await request(t.http).put('/api/users/1/pwd').set(admin).send({ NewPass: 'no-origpass-here' }).expect(400);
    });
  });

  describe('deleting', () => {
    it('is admin only, never your own account, never the default admin', async () => {
      const u = await createUser(t.http, admin);
      await request(t.http).delete(`/api/users/${u.uid}`).set(alice.headers).expect(403);
      await request(t.http).delete(`/api/users/${u.uid}`).set(u.headers).expect(403);
      const other = await createUser(t.http, admin, { admin: true });
      await request(t.http).delete(`/api/users/${other.uid}`).set(other.headers).expect(403);
      await request(t.http).delete('/api/users/1').set(other.headers).expect(403);
      await request(t.http).delete(`/api/users/${u.uid}/`).set(admin).expect(200);
      await request(t.http).get('/api/info/whoami').set(u.headers).expect(401);
      await request(t.http).get(`/api/users/${u.uid}`).set(admin).expect(404);
      await request(t.http).delete(`/api/users/${u.uid}`).set(admin).expect(404);
    });
  });

  describe('locking', () => {
    it('is admin only and idempotent', async () => {
      const u = await createUser(t.http, admin);
      await request(t.http).put(`/api/users/${u.uid}/lock`).set(alice.headers).expect(403);
      await request(t.http).put(`/api/users/${u.uid}/lock`).set(admin).expect(200);
      await request(t.http).put(`/api/users/${u.uid}/lock`).set(admin).expect(200);
      expect((await request(t.http).get(`/api/users/${u.uid}`).set(admin)).body.Locked).toBe(true);
      await request(t.http).delete(`/api/users/${u.uid}/lock`).set(admin).expect(200);
      await request(t.http).delete(`/api/users/${u.uid}/lock`).set(admin).expect(200);
      expect((await request(t.http).get(`/api/users/${u.uid}`).set(admin)).body.Locked).toBe(false);
      await request(t.http).put('/api/users/1/lock').set(admin).expect(403);
      await request(t.http).put('/api/users/99999/lock').set(admin).expect(404);
    });

    it('no request that starts after the lock call returns succeeds, under concurrent load', async () => {
      const u = await createUser(t.http, admin);
      const sessions = [u.headers, ...(await Promise.all([login(t.http, u.name, u.password), login(t.http, u.name, u.password)]))];
      let lockedAt = 0;
      const late: Array<Promise<number>> = [];
      let running = true;
      const hammer = async (h: Headers) => {
        while (running) {
          const started = Date.now();
          const p = request(t.http)
            .get('/api/info/whoami')
            .set(h)
            .then((r) => r.status);
          if (lockedAt && started > lockedAt) late.push(p);
          await p;
        }
      };
      const workers = sessions.flatMap((h) => [hammer(h), hammer(h)]);
      await new Promise((r) => setTimeout(r, 100));
      await request(t.http).put(`/api/users/${u.uid}/lock`).set(admin).expect(200);
      lockedAt = Date.now();
      await new Promise((r) => setTimeout(r, 300));
      running = false;
      await Promise.all(workers);
      const statuses = await Promise.all(late);
      expect(statuses.length).toBeGreaterThan(5);
      expect(statuses.every((s) => s === 401)).toBe(true);
    });
  });

  describe('admin status', () => {
    it('reads for self or admin; only admins change it; the default admin cannot be demoted', async () => {
      const u = await createUser(t.http, admin);
      expect((await request(t.http).get(`/api/users/${u.uid}/admin`).set(u.headers).expect(200)).body).toEqual({ UID: u.uid, Admin: false });
      await request(t.http).get(`/api/users/${u.uid}/admin`).set(alice.headers).expect(403);
      await request(t.http).put(`/api/users/${u.uid}/admin`).set(u.headers).expect(403);
      expect((await request(t.http).put(`/api/users/${u.uid}/admin`).set(admin).expect(200)).body).toEqual({ UID: u.uid, Admin: true });
      // the promotion applies to the existing session at once
      await request(t.http).get('/api/users/1').set(u.headers).expect(200);
      expect((await request(t.http).delete(`/api/users/${u.uid}/admin`).set(admin).expect(200)).body).toEqual({ UID: u.uid, Admin: false });
      await request(t.http).get('/api/users/1').set(u.headers).expect(403);
      await request(t.http).delete('/api/users/1/admin').set(admin).expect(403);
      await request(t.http).put('/api/users/1').set(admin).send({ Admin: false }).expect(403);
    });
  });

  describe('groups and the default search group', () => {
    it('adds, lists and removes memberships (admin only)', async () => {
      const u = await createUser(t.http, admin);
      const g1 = await createGroup(t.http, admin);
      const g2 = await createGroup(t.http, admin);
      await request(t.http)
        .post(`/api/users/${u.uid}/group`)
        .set(u.headers)
        .send({ GIDs: [g1] })
        .expect(403);
      await request(t.http)
        .post(`/api/users/${u.uid}/group`)
        .set(admin)
        .send({ GIDs: [g1, g2, g1] })
        .expect(200);
      const mine = await request(t.http).get(`/api/users/${u.uid}/group`).set(u.headers).expect(200);
      expect(mine.body).toEqual([
        { GID: g1, Name: expect.any(String), Desc: 'test group', Synced: false },
        { GID: g2, Name: expect.any(String), Desc: 'test group', Synced: false },
      ]);
      await request(t.http).get(`/api/users/${u.uid}/group`).set(alice.headers).expect(403);
      await request(t.http)
        .post(`/api/users/${u.uid}/group`)
        .set(admin)
        .send({ GIDs: [999999] })
        .expect(404);
      await request(t.http)
        .post(`/api/users/${u.uid}/group`)
        .set(admin)
        .send({ GIDs: ['x'] })
        .expect(400);
      await request(t.http).delete(`/api/users/${u.uid}/group/${g2}`).set(u.headers).expect(403);
      await request(t.http).delete(`/api/users/${u.uid}/group/${g2}`).set(admin).expect(200);
      await request(t.http).delete(`/api/users/${u.uid}/group/${g2}`).set(admin).expect(404);
      const who = await request(t.http).get('/api/info/whoami').set(u.headers).expect(200);
      expect(who.body.Groups.map((g: { GID: number }) => g.GID)).toEqual([g1]);
    });

    it('sets the default search group only to a group of the user', async () => {
      const u = await createUser(t.http, admin);
      const g = await createGroup(t.http, admin);
      const other = await createGroup(t.http, admin);
      await addToGroup(t.http, admin, u.uid, g);
      expect((await request(t.http).get(`/api/users/${u.uid}/searchgroup`).set(u.headers).expect(200)).body).toBe(0);
      await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(u.headers).send({ GID: other }).expect(403);
      await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(u.headers).send({ GID: 999999 }).expect(404);
      await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(u.headers).send({ GID: 'abc' }).expect(400);
      await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(alice.headers).send({ GID: g }).expect(403);
      await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(u.headers).send({ GID: g }).expect(200);
      expect((await request(t.http).get(`/api/users/${u.uid}/searchgroup`).set(u.headers).expect(200)).body).toBe(g);
      expect((await request(t.http).get(`/api/users/${u.uid}`).set(u.headers)).body.DefaultGID).toBe(g);
      await request(t.http).delete(`/api/users/${u.uid}/searchgroup`).set(u.headers).expect(200);
      expect((await request(t.http).get(`/api/users/${u.uid}/searchgroup`).set(u.headers).expect(200)).body).toBe(0);
    });
  });
});

describe('groups API', () => {
  let t: TestApp;
  let admin: Headers;
  let member: TestUser;
  let outsider: TestUser;
  let gid: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    member = await createUser(t.http, admin);
    outsider = await createUser(t.http, admin);
    gid = await createGroup(t.http, admin, 'analysts');
    await addToGroup(t.http, admin, member.uid, gid);
  });
  afterAll(() => t.close());

  it('creates groups (admin only) and rejects duplicates and bad names', async () => {
    await request(t.http).post('/api/groups').set(member.headers).send({ Name: 'x1', Desc: '' }).expect(403);
    const res = await request(t.http).post('/api/groups').set(admin).send({ Name: 'ops', Desc: 'operations' }).expect(200);
    expect(res.body).toEqual(expect.any(Number));
    await request(t.http).post('/api/groups').set(admin).send({ Name: 'OPS' }).expect(409);
    await request(t.http).post('/api/groups').set(admin).send({ Name: '' }).expect(400);
    await request(t.http).post('/api/groups').set(admin).send({ Name: 42 }).expect(400);
  });

  it('lists and reads groups for anyone signed in', async () => {
    const list = await request(t.http).get('/api/groups').set(outsider.headers).expect(200);
    expect(list.body).toEqual(expect.arrayContaining([{ GID: gid, Name: 'analysts', Desc: 'test group', Synced: false }]));
    await request(t.http).get(`/api/groups/${gid}`).set(outsider.headers).expect(200);
    await request(t.http).get('/api/groups/999999').set(outsider.headers).expect(404);
    await request(t.http).get('/api/groups').expect(401);
  });

  it('lists members for members and admins only', async () => {
    const res = await request(t.http).get(`/api/groups/${gid}/members`).set(member.headers).expect(200);
    expect(res.body.map((u: { UID: number }) => u.UID)).toEqual([member.uid]);
    await request(t.http).get(`/api/groups/${gid}/members`).set(admin).expect(200);
    await request(t.http).get(`/api/groups/${gid}/members`).set(outsider.headers).expect(403);
  });

  it('updates and deletes groups (admin only)', async () => {
    const g = await createGroup(t.http, admin, 'temporary');
    await request(t.http).put(`/api/groups/${g}`).set(member.headers).send({ Desc: 'x' }).expect(403);
    const res = await request(t.http).put(`/api/groups/${g}`).set(admin).send({ Desc: 'changed', GID: 5 }).expect(200);
    expect(res.body).toEqual({ GID: g, Name: 'temporary', Desc: 'changed', Synced: false });
    await request(t.http).delete(`/api/groups/${g}`).set(member.headers).expect(403);
    await request(t.http).delete(`/api/groups/${g}`).set(admin).expect(200);
    await request(t.http).get(`/api/groups/${g}`).set(admin).expect(404);
    await request(t.http).delete(`/api/groups/${g}`).set(admin).expect(404);
  });

  it('removal from a group takes effect on the very next request', async () => {
    const u = await createUser(t.http, admin);
    const g = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, u.uid, g);
    await request(t.http).get(`/api/groups/${g}/members`).set(u.headers).expect(200);
    await request(t.http).delete(`/api/users/${u.uid}/group/${g}`).set(admin).expect(200);
    await request(t.http).get(`/api/groups/${g}/members`).set(u.headers).expect(403);
  });
});
