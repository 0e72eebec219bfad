import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';

/** Deleting a group removes it from every object shared with it, whatever the kind (README: "every object"). */
describe('deleting a group', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let db: Client;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('removes its ID from dashboards, library entries, resources, user files and saved searches, and no other ID', async () => {
    const doomed = await createGroup(t.http, admin);
    const kept = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, doomed);
    await addToGroup(t.http, admin, owner.uid, kept);
    const h = owner.headers;
    const gids = [doomed, kept];

    const dash = (await request(t.http).post('/api/dashboards').set(h).send({ Name: 'd', GIDs: gids, Data: {} }).expect(200)).body as number;
    const lib = (await request(t.http).post('/api/library').set(h).send({ Name: 'l', Query: 'tag=x', GIDs: gids }).expect(200)).body.ThingUUID as string;
    const res = (await request(t.http).post('/api/resources').set(h).send({ ResourceName: 'r', GroupACL: gids }).expect(200)).body.GUID as string;
    const file = (
      await request(t.http)
        .post('/api/files')
        .set(h)
        .attach('file', Buffer.from('x'), 'f.txt')
        .field('meta', JSON.stringify({ Name: 'f', GIDs: gids }))
        .expect(200)
    ).body;
    await db.query(
      `INSERT INTO saved_search (id, uid, gids, user_query, effective_query, start_range, end_range, started, finished, render_module)
       VALUES (987654321, $1, $2, 'tag=x', 'tag=x', now(), now(), now(), now(), 'text')`,
      [owner.uid, gids],
    );

    await request(t.http).delete(`/api/groups/${doomed}`).set(admin).expect(200);

    expect((await request(t.http).get(`/api/dashboards/${dash}`).set(h).expect(200)).body.GIDs).toEqual([kept]);
    expect((await request(t.http).get(`/api/library/${lib}`).set(h).expect(200)).body.GIDs).toEqual([kept]);
    expect((await request(t.http).get(`/api/resources/${res}`).set(h).expect(200)).body.GroupACL).toEqual([kept]);
    const files = (await request(t.http).get('/api/files').set(h).expect(200)).body as { ThingUUID: string; GIDs: number[] }[];
    expect(files.find((f) => f.ThingUUID === file.ThingUUID)?.GIDs).toEqual([kept]);
    expect((await db.query(`SELECT gids FROM saved_search WHERE id = 987654321`)).rows[0].gids).toEqual([kept]);
  });
});
