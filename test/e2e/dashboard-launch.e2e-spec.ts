import request from 'supertest';
import { SIDE_EFFECT_MODULES } from '../../src/query/side-effects';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { errorBody, searchErrors } from '../setup/errors';

const RANGE = { SearchStart: '2024-05-01T00:00:00Z', SearchEnd: '2024-05-02T00:00:00Z' };
const WRITES = 'tag=web json host | count by host | table -save hosts host count';

/**
 * A shared dashboard runs its author's queries with the viewer's rights (issue 32, item 2): a
 * query someone else wrote must not write silently (`table -save` replaced the viewer's private
 * resource), and the searches a dashboard launches are private to the viewer (they went to the
 * viewer's default search group, where the author read what the viewer's rights found).
 */
describe("a dashboard's searches run as the viewer", () => {
  let t: TestApp;
  let admin: Headers;
  let author: TestUser;
  let viewer: TestUser;
  let gid: number;
  let dashboard: number;
  let hostsGuid: string;

  const launch = (h: Headers, query: string, extra: Record<string, unknown> = {}) =>
    request(t.http)
      .post('/api/searchctrl/launch')
      .set(h)
      .send({ SearchString: query, ...RANGE, ...extra });
  const fromDashboard = (id: number | string) => ({ LaunchInfo: { method: 'dashboard', reference: String(id) } });
  const hostsVersion = async () => (await request(t.http).get(`/api/resources/${hostsGuid}`).set(viewer.headers).expect(200)).body.VersionNumber as number;
  const waitFinished = async (h: Headers, id: string) => {
    for (;;) {
      const s = await request(t.http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
      if (s.body.Finished === true) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    author = await createUser(t.http, admin);
    viewer = await createUser(t.http, admin);
    gid = await createGroup(t.http, admin);
    for (const u of [author, viewer]) await addToGroup(t.http, admin, u.uid, gid);
    await request(t.http).put(`/api/users/${viewer.uid}/searchgroup`).set(viewer.headers).send({ GID: gid }).expect(200);
    const body = [{ TS: '2024-05-01T10:00:00Z', Tag: 'web', SRC: '10.0.0.1', Data: Buffer.from('{"host":"web1"}').toString('base64') }];
    await request(t.http).put('/api/ingest/json').set(admin).send(body).expect(200);
    // The viewer's own private table, which the author's tile would overwrite.
    hostsGuid = (await request(t.http).post('/api/resources').set(viewer.headers).send({ ResourceName: 'hosts', Description: 'mine' }).expect(200)).body.GUID;
    await request(t.http).put(`/api/resources/${hostsGuid}/raw`).set(viewer.headers).attach('file', Buffer.from('host,owner\nweb1,me\n'), 'hosts.csv').expect(200);
    const data = {
      searches: [{ alias: null, query: WRITES }],
      tiles: [{ id: 1, title: 't', renderer: 'table', span: { col: 4, row: 4, x: 0, y: 0 }, searchesIndex: 0, rendererOptions: {} }],
    };
    dashboard = (
      await request(t.http)
        .post('/api/dashboards')
        .set(author.headers)
        .send({ Name: 'shared', GIDs: [gid], Data: data })
        .expect(200)
    ).body;
  });
  afterAll(async () => {
    await t.close();
  });

  it("refuses a side effect of someone else's dashboard without the viewer's consent, and nothing is written", async () => {
    const before = await hostsVersion();
    for (const ref of [dashboard, 'not-a-dashboard', '99999999', undefined]) {
      const res = await launch(viewer.headers, WRITES, { LaunchInfo: { method: 'dashboard', reference: ref } });
      expect({ ref, status: res.status, body: res.body }).toEqual({
        ref,
        status: 403,
        body: errorBody(searchErrors.sideEffects('table -save writes the table to the resource "hosts", replacing its contents'), 'SIDE_EFFECTS_NOT_CONFIRMED'),
      });
    }
    expect(await hostsVersion()).toBe(before);
    // Confirmed by the viewer (the console asks first): it runs, as the viewer.
    const ok = await launch(viewer.headers, WRITES, { ...fromDashboard(dashboard), ConfirmSideEffects: true }).expect(200);
    await waitFinished(viewer.headers, ok.body.SearchID);
    expect(await hostsVersion()).toBe(before + 1);
  });

  it("runs the author's own dashboard, and queries typed by hand, without asking", async () => {
    const own = await launch(author.headers, WRITES, fromDashboard(dashboard)).expect(200);
    await waitFinished(author.headers, own.body.SearchID);
    await launch(viewer.headers, WRITES).expect(200);
  });

  it("keeps a dashboard's searches private to the viewer, whoever wrote the dashboard", async () => {
    const fromTile = await launch(viewer.headers, 'tag=web count', fromDashboard(dashboard)).expect(200);
    expect(fromTile.body.Info).toEqual(expect.objectContaining({ UID: viewer.uid, GIDs: [], GID: 0, Global: false }));
    await request(t.http).get(`/api/searchctrl/${fromTile.body.SearchID}`).set(author.headers).expect(404);
    // Asking to share it changes nothing; typed by hand, the default search group still applies.
    const asked = await launch(viewer.headers, 'tag=web count', { ...fromDashboard(dashboard), GIDs: [gid] }).expect(200);
    expect(asked.body.Info.GIDs).toEqual([]);
    const typed = await launch(viewer.headers, 'tag=web count').expect(200);
    expect(typed.body.Info.GIDs).toEqual([gid]);
  });

  it('says in /api/parse what a query would change, from the one list of modules with side effects', async () => {
    expect(SIDE_EFFECT_MODULES).toEqual(['table -save']);
    const parse = (q: string) => request(t.http).post('/api/parse').set(viewer.headers).send({ SearchString: q }).expect(200);
    expect((await parse(WRITES)).body.SideEffects).toEqual([{ Module: 'table -save', Effect: 'writes the table to the resource "hosts", replacing its contents' }]);
    expect((await parse('tag=web json host | count by host | table')).body.SideEffects).toEqual([]);
  });
});
