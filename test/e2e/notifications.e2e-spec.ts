import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';

const notification = (n: Record<string, unknown> = {}) => ({
  UID: expect.any(Number),
  GID: expect.any(Number),
  Sender: expect.any(Number),
  Type: expect.any(Number),
  Broadcast: expect.any(Boolean),
  Sent: expect.any(String),
  Expires: expect.any(String),
  IgnoreUntil: expect.any(String),
  Msg: expect.any(String),
  Origin: expect.any(String),
  ...n,
});

describe('notifications', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let gid: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    [alice, bob, carol] = [await createUser(t.http, admin), await createUser(t.http, admin), await createUser(t.http, admin)];
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, alice.uid, gid);
    await addToGroup(t.http, admin, bob.uid, gid);
  });
  afterAll(() => t.close());

  const list = async (h: Headers, q = '') => (await request(t.http).get(`/api/notifications${q}`).set(h).expect(200)).body as Record<string, { Msg: string }>;
  const msgs = async (h: Headers) =>
    Object.values(await list(h))
      .map((n) => n.Msg)
      .sort();

  it('is an empty object, never null, when there are none', async () => {
    expect(await list(carol.headers)).toEqual({});
  });

  it("shows each user only their own, their groups' and broadcast notifications", async () => {
    await request(t.http).post('/api/notifications/broadcast').set(admin).send({ Msg: 'to everyone', Type: 1 }).expect(200);
    await request(t.http).post('/api/notifications/targeted').set(admin).send({ Msg: 'to the group', GID: gid }).expect(200);
    await request(t.http).post('/api/notifications/targeted').set(admin).send({ Msg: 'to alice', UID: alice.uid, Level: 'warn' }).expect(200);
    await request(t.http).post('/api/notifications/targeted/self').set(bob.headers).send({ Msg: 'bob note' }).expect(200);
    expect(await msgs(alice.headers)).toEqual(['to alice', 'to everyone', 'to the group']);
    expect(await msgs(bob.headers)).toEqual(['bob note', 'to everyone', 'to the group']);
    expect(await msgs(carol.headers)).toEqual(['to everyone']);
    const all = await list(admin, '?admin=true');
    expect(
      Object.values(all)
        .map((n) => n.Msg)
        .sort(),
    ).toEqual(['bob note', 'to alice', 'to everyone', 'to the group']);
    const aliceSet = await list(alice.headers);
    const mine = Object.entries(aliceSet).find(([, n]) => n.Msg === 'to alice')!;
    expect(mine[0]).toMatch(/^\d+$/);
    expect(mine[1]).toEqual(notification({ UID: alice.uid, GID: 0, Sender: 1, Type: 0, Broadcast: false, Msg: 'to alice', Level: 'warn' }));
  });

  it('lets only admins send broadcast and targeted notifications', async () => {
    await request(t.http).post('/api/notifications/broadcast').set(alice.headers).send({ Msg: 'x' }).expect(403);
    await request(t.http).post('/api/notifications/targeted').set(alice.headers).send({ Msg: 'x', UID: bob.uid }).expect(403);
    await request(t.http).post('/api/notifications/targeted').set(admin).send({ Msg: 'x' }).expect(400);
    await request(t.http).post('/api/notifications/targeted').set(admin).send({ Msg: 'x', UID: 999999 }).expect(404);
    await request(t.http).post('/api/notifications/targeted').set(admin).send({ Msg: 'x', GID: 999999 }).expect(404);
  });

  it('self-notifications honour only Type, Msg, Expires and Link, with a 12 h default expiry', async () => {
    const far = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const res = await request(t.http)
      .post('/api/notifications/targeted/self')
      .set(carol.headers)
      .send({ Msg: 'self', UID: alice.uid, GID: gid, Expires: far, Link: 'https://x' })
      .expect(200);
    const n = (await list(carol.headers))[String(res.body)];
    expect(n).toEqual(notification({ UID: carol.uid, GID: 0, Broadcast: false, Msg: 'self', Link: 'https://x' }));
    const ttl = new Date((n as unknown as { Expires: string }).Expires).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(11.9 * 3600_000);
    expect(ttl).toBeLessThan(12.1 * 3600_000);
    expect(await msgs(alice.headers)).not.toContain('self');
  });

  it('updates instead of duplicating when the same sender sends the same Type to the same target', async () => {
    const a = await request(t.http).post('/api/notifications/targeted/self').set(carol.headers).send({ Msg: 'first', Type: 77 }).expect(200);
    const b = await request(t.http).post('/api/notifications/targeted/self').set(carol.headers).send({ Msg: 'second', Type: 77 }).expect(200);
    expect(b.body).toBe(a.body);
    const set = await list(carol.headers);
    expect(set[String(a.body)].Msg).toBe('second');
    expect(Object.values(set).filter((n) => n.Msg === 'first')).toEqual([]);
  });

  it('lets the addressee update (hide with IgnoreUntil) and delete; others get 404/403', async () => {
    const id = (await request(t.http).post('/api/notifications/targeted').set(admin).send({ Msg: 'for bob', UID: bob.uid }).expect(200)).body;
    await request(t.http).put(`/api/notifications/${id}`).set(alice.headers).send({ Msg: 'hijack' }).expect(404);
    const gidNote = (await request(t.http).post('/api/notifications/targeted').set(admin).send({ Msg: 'group note', GID: gid }).expect(200)).body;
    await request(t.http).put(`/api/notifications/${gidNote}`).set(alice.headers).send({ Msg: 'hijack' }).expect(403);
    await request(t.http).delete(`/api/notifications/${gidNote}`).set(alice.headers).expect(403);
    await request(t.http).put(`/api/notifications/${id}`).set(bob.headers).send({ Msg: 'edited', UID: alice.uid }).expect(200);
    expect((await list(bob.headers))[String(id)]).toEqual(notification({ UID: bob.uid, Msg: 'edited' }));
    const later = new Date(Date.now() + 3600_000).toISOString();
    await request(t.http).put(`/api/notifications/${id}`).set(bob.headers).send({ IgnoreUntil: later }).expect(200);
    expect((await list(bob.headers))[String(id)]).toBeUndefined();
    await request(t.http).delete(`/api/notifications/${id}`).set(bob.headers).expect(200);
    await request(t.http).delete(`/api/notifications/${id}`).set(bob.headers).expect(404);
    await request(t.http).delete(`/api/notifications/${gidNote}`).set(admin).expect(200);
  });

  it('lists only notifications newer than an ID or a time', async () => {
    const first = (await request(t.http).post('/api/notifications/targeted/self').set(carol.headers).send({ Msg: 'older' }).expect(200)).body;
    await request(t.http).post('/api/notifications/targeted/self').set(carol.headers).send({ Msg: 'newer' }).expect(200);
    const after = (await request(t.http).get(`/api/notifications/${first}`).set(carol.headers).expect(200)).body;
    expect(Object.values(after).map((n) => (n as { Msg: string }).Msg)).toEqual(['newer']);
    const future = await list(carol.headers, `?after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future).toEqual({});
  });

  it('rejects bad input with 4xx', async () => {
    await request(t.http).post('/api/notifications/targeted/self').set(carol.headers).send({}).expect(400);
    await request(t.http).post('/api/notifications/targeted/self').set(carol.headers).send({ Msg: 5 }).expect(400);
    await request(t.http).post('/api/notifications/targeted/self').set(carol.headers).send({ Msg: 'x', Expires: 'not a date' }).expect(400);
    await request(t.http).post('/api/notifications/broadcast').set(admin).send({ Msg: 'x', Level: 'shouting' }).expect(400);
    await request(t.http).put('/api/notifications/abc').set(carol.headers).send({}).expect(400);
    await request(t.http).delete('/api/notifications/-1').set(carol.headers).expect(400);
    await request(t.http).get('/api/notifications?after=yesterday').set(carol.headers).expect(400);
    await request(t.http).get('/api/notifications').expect(401);
  });
});
