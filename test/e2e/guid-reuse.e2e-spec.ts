import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { getBytes } from '../setup/blobs';
import { errorBody, sharingErrors } from '../setup/errors';

/**
 * GUID reuse (issue 32, item 3): a GUID resolves to the caller's own object, then one shared
 * through a group, then a global one. A member could create an object with the GUID of an
 * admin's global one and share it with the group, and every member opening the GUID would get
 * the member's object instead. A copy that reuses another owner's GUID stays private unless an
 * admin shares it; the first holder of a GUID keeps every right over their own object.
 */
describe("objects that reuse another owner's GUID", () => {
  let t: TestApp;
  let admin: Headers;
  let member: TestUser;
  let victim: TestUser;
  let stranger: TestUser;
  let gid: number;
  let other: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    [member, victim, stranger] = [await createUser(t.http, admin), await createUser(t.http, admin), await createUser(t.http, admin)];
    gid = await createGroup(t.http, admin);
    other = await createGroup(t.http, admin);
    for (const u of [member, victim]) await addToGroup(t.http, admin, u.uid, gid);
    await addToGroup(t.http, admin, member.uid, other);
  });
  afterAll(async () => {
    await t.close();
  });

  const http = () => request(t.http);
  const refused = errorBody(sharingErrors.reusedGuid, 'GUID_OF_ANOTHER_OWNER');

  /** One kind of object, through its own API. */
  interface Kind {
    name: string;
    create(h: Headers, guid: string, share: { GIDs?: number[]; Global?: boolean }, marker: string): Promise<request.Response>;
    share(h: Headers, id: string, share: { GIDs?: number[]; Global?: boolean }): Promise<request.Response>;
    /** What the caller gets for the GUID: the marker of the object it resolves to. */
    open(h: Headers, guid: string): Promise<string>;
    idOf(res: request.Response): string;
  }

  const kinds: Kind[] = [
    {
      name: 'library entry',
      create: (h, guid, share, marker) =>
        http()
          .post('/api/library')
          .set(h)
          .send({ Name: marker, Query: `tag=${marker}`, GUID: guid, ...share }),
      share: (h, id, share) => http().put(`/api/library/${id}`).set(h).send(share),
      open: async (h, guid) => (await http().get(`/api/library/${guid}`).set(h).expect(200)).body.Name as string,
      idOf: (res) => res.body.ThingUUID as string,
    },
    {
      name: 'dashboard',
      create: (h, guid, share, marker) =>
        http()
          .post('/api/dashboards')
          .set(h)
          .send({ Name: marker, GUID: guid, Data: { searches: [{ alias: null, query: `tag=${marker}` }], tiles: [] }, GIDs: [], ...share }),
      share: (h, id, share) => http().put(`/api/dashboards/${id}`).set(h).send(share),
      open: async (h, guid) => (await http().get(`/api/dashboards/${guid}`).set(h).expect(200)).body.Name as string,
      idOf: (res) => String(res.body),
    },
    {
      name: 'user file',
      create: (h, guid, share, marker) =>
        http()
          .post('/api/files')
          .set(h)
          .attach('file', Buffer.from(marker), 'f.txt')
          .field('meta', JSON.stringify({ Name: marker, GUID: guid, GIDs: share.GIDs ?? [], Global: share.Global ?? false })),
      share: (h, id, share) => http().patch(`/api/files/${id}`).set(h).send(share),
      open: async (h, guid) => (await getBytes(t.http, `/api/files/${guid}`, h).expect(200)).body.toString(),
      idOf: (res) => res.body.ThingUUID as string,
    },
  ];

  for (const kind of kinds) {
    describe(kind.name, () => {
      it("a member cannot share a copy of the admin's global GUID with the group; the copy stays theirs alone", async () => {
        const guid = randomUUID();
        await kind.create(admin, guid, { Global: true }, 'adminsown').expect(200);
        // Sharing the copy at creation: 403, and nothing is made.
        const shared = await kind.create(member.headers, guid, { GIDs: [gid] }, 'hijack');
        expect([shared.status, shared.body]).toEqual([403, refused]);
        expect(await kind.open(victim.headers, guid)).toBe('adminsown');
        // A private copy is allowed: it overrides the GUID for its owner only.
        const copy = await kind.create(member.headers, guid, {}, 'mycopy').expect(200);
        expect(await kind.open(member.headers, guid)).toBe('mycopy');
        expect(await kind.open(victim.headers, guid)).toBe('adminsown');
        // Sharing it later is refused just the same.
        const later = await kind.share(member.headers, kind.idOf(copy), { GIDs: [gid] });
        expect([later.status, later.body]).toEqual([403, refused]);
        expect(await kind.open(victim.headers, guid)).toBe('adminsown');
      });

      it('the first holder of a GUID shares it freely, whatever others do with the GUID; admins share any copy', async () => {
        const guid = randomUUID();
        const mine = await kind.create(member.headers, guid, { GIDs: [gid] }, 'original').expect(200);
        await kind.create(stranger.headers, guid, {}, 'strangers').expect(200);
        expect(await kind.open(victim.headers, guid)).toBe('original');
        // The stranger's later copy does not stop the first holder from sharing further.
        await kind.share(member.headers, kind.idOf(mine), { GIDs: [gid, other] }).expect(200);
        // An admin may share a copy that reuses someone else's GUID.
        await kind.create(admin, guid, { GIDs: [other] }, 'admins').expect(200);
      });
    });
  }
});
