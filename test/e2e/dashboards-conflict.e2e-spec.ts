import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { dashboardErrors, errorBody } from '../setup/errors';

/**
 * Two people saving the same dashboard: GET answers with an ETag (the stored version), PUT with
 * a stale If-Match answers 412 and changes nothing, PUT without If-Match saves as it always did
 * (the product's own client never sends it).
 */
describe('dashboards: If-Match on PUT', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin, { prefix: 'owner' });
    member = await createUser(t.http, admin, { prefix: 'member' });
    stranger = await createUser(t.http, admin, { prefix: 'stranger' });
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
  });
  afterAll(() => t.close());

  const DATA = {
    version: 2,
    searches: [{ alias: 'a', query: 'tag=web count', timeframe: {} }],
    tiles: [],
    timeframe: { durationString: 'PT1H', timeframe: 'PT1H', start: null, end: null },
  };

  async function make(h: Headers, body: object = {}): Promise<number> {
    const res = await request(t.http)
      .post('/api/dashboards')
      .set(h)
      .send({ Name: 'conflict', GIDs: [gid], Data: DATA, ...body });
    expect(res.status).toBe(200);
    return res.body as number;
  }
  const get = (h: Headers, ref: number | string) => request(t.http).get(`/api/dashboards/${ref}`).set(h);
  const put = (h: Headers, ref: number | string, body: object, ifMatch?: string) => {
    const r = request(t.http).put(`/api/dashboards/${ref}`).set(h);
    if (ifMatch !== undefined) r.set('If-Match', ifMatch);
    return r.send(body);
  };
  const fullBody = (res: request.Response, patch: object) => ({ ...(res.body as object), ...patch });

  it('GET answers with a quoted ETag that changes with every save and not otherwise', async () => {
    const id = await make(owner.headers);
    const a = await get(owner.headers, id).expect(200);
    expect(a.headers.etag).toMatch(/^"\d+"$/);
    expect((await get(owner.headers, id)).headers.etag).toBe(a.headers.etag);
    expect((await get(member.headers, id)).headers.etag).toBe(a.headers.etag);
    const saved = await put(owner.headers, id, fullBody(a, { Name: 'renamed' }), a.headers.etag).expect(200);
    expect(saved.headers.etag).toMatch(/^"\d+"$/);
    expect(saved.headers.etag).not.toBe(a.headers.etag);
    expect((await get(owner.headers, id)).headers.etag).toBe(saved.headers.etag);
  });

  it('a matching If-Match saves; a stale one answers 412 with {Error} and leaves the dashboard as it was', async () => {
    const id = await make(owner.headers);
    const first = await get(owner.headers, id).expect(200);
    const second = await get(owner.headers, id).expect(200);
    // The first person saves.
    const saved = await put(owner.headers, id, fullBody(first, { Name: 'first', Data: { ...DATA, tiles: [{ id: 1, title: 'one' }] } }), first.headers.etag);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ Name: 'first' });
    // The second, from the copy read before that save, is refused.
    const stale = await put(owner.headers, id, fullBody(second, { Name: 'second', Data: {} }), second.headers.etag);
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ Error: expect.stringContaining('changed since you loaded it'), Code: 'DASHBOARD_CHANGED' });
    const now = await get(owner.headers, id).expect(200);
    expect(now.body).toMatchObject({ Name: 'first', Data: { ...DATA, tiles: [{ id: 1, title: 'one' }] } });
    expect(now.body.Updated).toBe(saved.body.Updated);
    expect(now.headers.etag).toBe(saved.headers.etag);
    // Reload and save again: accepted.
    await put(owner.headers, id, fullBody(now, { Name: 'second' }), now.headers.etag).expect(200);
    expect((await get(owner.headers, id)).body.Name).toBe('second');
  });

  it('If-Match forms: unquoted, a list, and *; a weak tag (strong comparison, RFC 9110) or anything else is stale', async () => {
    const id = await make(owner.headers);
    let cur = await get(owner.headers, id);
    const bare = () => (cur.headers.etag as string).replace(/"/g, '');
    for (const make of [() => bare(), (e: string) => `"1", ${e}`, () => '*']) {
      const form = make(cur.headers.etag as string);
      const res = await put(owner.headers, id, fullBody(cur, {}), form);
      expect([form, res.status]).toEqual([form, 200]);
      cur = await get(owner.headers, id);
    }
    for (const form of ['"1"', 'garbage', `"${bare()}0"`, `W/${cur.headers.etag}`]) expect((await put(owner.headers, id, fullBody(cur, { Name: 'no' }), form)).status).toBe(412);
    expect((await get(owner.headers, id)).body.Name).toBe('conflict');
  });

  it('deleting a group the dashboard is shared with moves its version: the old GIDs cannot be saved back over it', async () => {
    const doomed = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, doomed);
    const id = await make(owner.headers, { GIDs: [gid, doomed] });
    const before = await get(owner.headers, id).expect(200);
    await request(t.http).delete(`/api/groups/${doomed}`).set(admin).expect(200);
    const after = await get(owner.headers, id).expect(200);
    expect(after.body.GIDs).toEqual([gid]);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The old body names the deleted group (refused on its own: 400); the version alone refuses the rest.
    expect((await put(owner.headers, id, fullBody(before, { Name: 'stale' }), before.headers.etag)).status).toBe(400);
    expect((await put(owner.headers, id, fullBody(after, { Name: 'stale' }), before.headers.etag)).status).toBe(412);
    await put(owner.headers, id, fullBody(after, { Name: 'fresh' }), after.headers.etag).expect(200);
  });

  it('without If-Match, PUT saves over anything, as before', async () => {
    const id = await make(owner.headers);
    const old = await get(owner.headers, id);
    await put(owner.headers, id, fullBody(old, { Name: 'newer' }), old.headers.etag).expect(200);
    const res = await put(owner.headers, id, fullBody(old, { Name: 'overwrite' }));
    expect(res.status).toBe(200);
    expect(res.body.Name).toBe('overwrite');
    expect(res.headers.etag).toMatch(/^"\d+"$/);
  });

  it('works through the GUID path too', async () => {
    const id = await make(owner.headers);
    const byId = await get(owner.headers, id);
    const guid = byId.body.GUID as string;
    const byGuid = await get(owner.headers, guid).expect(200);
    expect(byGuid.headers.etag).toBe(byId.headers.etag);
    const saved = await put(owner.headers, guid, fullBody(byGuid, { Name: 'by guid' }), byGuid.headers.etag).expect(200);
    expect((await put(owner.headers, guid.toUpperCase(), fullBody(byGuid, { Name: 'stale' }), byGuid.headers.etag)).status).toBe(412);
    const again = await put(owner.headers, guid, fullBody(byGuid, { Name: 'fresh' }), saved.headers.etag);
    expect(again.status).toBe(200);
    expect((await get(owner.headers, id)).body.Name).toBe('fresh');
  });

  it('strangers and readers get the answers they got before, whatever If-Match says', async () => {
    const id = await make(owner.headers);
    const cur = await get(owner.headers, id);
    // A stranger: not found, with or without If-Match (a stale one does not reveal it either).
    for (const tag of [undefined, cur.headers.etag, '"1"']) {
      const res = await put(stranger.headers, id, fullBody(cur, { Name: 'x' }), tag);
      expect([tag, res.status, res.body]).toEqual([tag, 404, errorBody(dashboardErrors.notFound, 'DASHBOARD_NOT_FOUND')]);
    }
    const g = await get(stranger.headers, id);
    expect(g.status).toBe(404);
    expect(g.headers.etag ?? '').not.toMatch(/^"\d+"$/); // no version of ours
    // A group member reads (with the ETag) but may not write: 403, stale or not.
    for (const tag of [undefined, cur.headers.etag, '"1"']) {
      const res = await put(member.headers, id, fullBody(cur, { Name: 'x' }), tag);
      expect([tag, res.status, res.body]).toEqual([tag, 403, errorBody(dashboardErrors.ownerOrAdmin, 'DASHBOARD_NOT_YOURS')]);
    }
    // An admin may save with the owner's ETag.
    await put(admin, id, fullBody(cur, { Name: 'by admin' }), cur.headers.etag).expect(200);
    expect((await get(owner.headers, id)).body.Name).toBe('by admin');
    // Unknown dashboards stay 404, with If-Match too.
    expect((await put(owner.headers, 12345, fullBody(cur, {}), '"1"')).status).toBe(404);
  });
});
