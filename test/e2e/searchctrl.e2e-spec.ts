import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Server } from 'node:http';
import * as zlib from 'node:zlib';
import request from 'supertest';
import * as tar from 'tar-stream';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { createToken } from '../setup/tokens';
import { archiveErrors, errorBody, requestErrors } from '../setup/errors';

const ZERO = '0001-01-01T00:00:00Z';
const BASE = Date.parse('2024-03-01T00:00:00Z');
const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-02T00:00:00Z' };
let tagSeq = 0;

async function ingest(http: Server, h: Headers, tag: string, n: number): Promise<void> {
  const body = Array.from({ length: n }, (_, i) => ({
    TS: new Date(BASE + i * 1000).toISOString(),
    Tag: tag,
    Data: Buffer.from(`entry ${i} of ${tag}`).toString('base64'),
  }));
  const res = await request(http).put('/api/ingest/json').set(h).send(body);
  if (res.status !== 200) throw new Error(`ingest failed ${res.status} ${JSON.stringify(res.body)}`);
}

async function launch(http: Server, h: Headers, query: string, extra: Record<string, unknown> = {}) {
  const res = await request(http)
    .post('/api/searchctrl/launch')
    .set(h)
    .send({ SearchString: query, ...RANGE, ...extra });
  if (res.status !== 200) throw new Error(`launch failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { SearchID: string; SearchSessionID: string; RefreshInterval: number; RenderModule: string; Info: Record<string, unknown> };
}

/** A tar.gz holding the given files (any header the test wants). */
async function tarGz(files: Array<{ name: string; body?: Buffer } & Partial<tar.Header>>): Promise<Buffer> {
  const pack = tar.pack();
  const gz = zlib.createGzip();
  const parts: Buffer[] = [];
  gz.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise((r) => gz.on('end', r));
  pack.pipe(gz);
  for (const { body, ...h } of files) await new Promise<void>((res, rej) => pack.entry(h, body ?? Buffer.alloc(0), (e) => (e ? rej(e) : res())));
  pack.finalize();
  await done;
  return Buffer.concat(parts);
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stats = (http: Server, h: Headers, id: string) => request(http).get(`/api/searchctrl/${id}/stats`).set(h);
const waitFinished = (http: Server, h: Headers, id: string) =>
  waitFor(
    () => stats(http, h, id),
    (r) => r.status !== 200 || r.body.Finished === true,
  );
const state = async (http: Server, h: Headers, id: string): Promise<string | undefined> => {
  const r = await request(http).get('/api/searchctrl?admin=true').set(h);
  return (r.body as Array<{ ID: string; State: string }>).find((s) => s.ID === id)?.State;
};
const waitState = (http: Server, h: Headers, id: string, want: string) =>
  waitFor(
    () => state(http, h, id),
    (s) => s === want,
  );

describe('search control', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;
  const tag = `sctl${process.pid}x${++tagSeq}`;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin);
    member = await createUser(t.http, admin);
    stranger = await createUser(t.http, admin);
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
    await ingest(t.http, admin, tag, 50);
  });
  afterAll(() => t.close());

  it('launches a search and answers the LaunchResponse, stats and info', async () => {
    const l = await launch(t.http, owner.headers, `tag=${tag}`);
    expect(l).toEqual({
      SearchSessionID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      RefreshInterval: expect.any(Number),
      SearchID: expect.stringMatching(/^\d{10,11}$/),
      RenderModule: 'text',
      RenderCmd: 'text',
      Info: expect.objectContaining({ ID: l.SearchID, UID: owner.uid, UserQuery: `tag=${tag}`, Finished: ZERO, State: 'ACTIVE', StoreSize: 0, IndexSize: 0 }),
      Messages: [],
    });
    const s = await waitFinished(t.http, owner.headers, l.SearchID);
    expect(s.status).toBe(200);
    expect(s.body).toEqual(expect.objectContaining({ Finished: true, EntryCount: 50, EntryCountValid: true, OverLimit: false }));
    const info = await request(t.http).get(`/api/searchctrl/${l.SearchID}`).set(owner.headers).expect(200);
    expect(info.body).toHaveLength(1);
    expect(info.body[0]).toEqual(
      expect.objectContaining({
        ID: l.SearchID,
        UID: owner.uid,
        UserQuery: `tag=${tag}`,
        EffectiveQuery: l.Info.EffectiveQuery,
        StartRange: '2024-03-01T00:00:00.000Z',
        EndRange: '2024-03-02T00:00:00.000Z',
        Started: expect.any(String),
        Finished: expect.not.stringMatching(/^0001/),
        StoreSize: expect.any(Number),
        IndexSize: 50 * 16,
        State: 'ACTIVE',
      }),
    );
    const dir = path.join(t.config.dataDir, 'searches', 'active', l.SearchID);
    expect(info.body[0].StoreSize).toBe(fs.statSync(path.join(dir, 'entries.jsonl')).size);
    expect(info.body[0].IndexSize).toBe(fs.statSync(path.join(dir, 'entries.idx')).size);
    const details = await request(t.http).get(`/api/searchctrl/${l.SearchID}/details`).set(owner.headers).expect(200);
    expect(details.body).toEqual(info.body[0]);
    const list = await request(t.http).get('/api/searchctrl').set(owner.headers).expect(200);
    expect(list.body).toContainEqual({
      ID: l.SearchID,
      UID: owner.uid,
      GID: 0,
      GIDs: [],
      Global: false,
      State: 'ACTIVE',
      AttachedClients: 1,
      StoredData: info.body[0].StoreSize + info.body[0].IndexSize,
      UserQuery: `tag=${tag}`,
      EffectiveQuery: l.Info.EffectiveQuery,
      StartRange: '2024-03-01T00:00:00.000Z',
      EndRange: '2024-03-02T00:00:00.000Z',
      NoHistory: false,
      Import: { Imported: false, Time: ZERO, BatchName: '', BatchInfo: '' },
      LaunchInfo: null,
    });
  });

  it('refuses bad queries, times and bodies with 400 and the parser message', async () => {
    const bad = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(owner.headers)
      .send({ SearchString: `tag=${tag} grep x | MakeRainbows`, ...RANGE })
      .expect(400);
    expect(bad.body).toEqual({ Error: expect.stringContaining('MakeRainbows is not a valid module'), Code: 'QUERY_INVALID' });
    await request(t.http).post('/api/searchctrl/launch').set(owner.headers).send({ SearchString: 'tag=x', SearchStart: 'yesterday' }).expect(400);
    await request(t.http).post('/api/searchctrl/launch').set(owner.headers).send({ SearchString: 'tag=x', SearchStart: RANGE.SearchEnd, SearchEnd: RANGE.SearchStart }).expect(400);
    await request(t.http).post('/api/searchctrl/launch').set(owner.headers).send({ SearchString: 42 }).expect(400);
    await request(t.http).post('/api/searchctrl/launch').set(owner.headers).set('Content-Type', 'application/json').send('{bad').expect(400);
    await request(t.http)
      .post('/api/searchctrl/launch')
      .set(owner.headers)
      .send({ SearchString: 'x'.repeat(70000) })
      .expect(400);
    await request(t.http)
      .post('/api/searchctrl/launch')
      .set(stranger.headers)
      .send({ SearchString: `tag=${tag}`, GIDs: [gid] })
      .expect(403);
    await request(t.http)
      .post('/api/searchctrl/launch')
      .set(owner.headers)
      .send({ SearchString: `tag=${tag}`, Global: true })
      .expect(403);
    await request(t.http)
      .post('/api/searchctrl/launch')
      .send({ SearchString: `tag=${tag}` })
      .expect(401);
  });

  it('pages by entry index (half-open) and by time range', async () => {
    const l = await launch(t.http, owner.headers, `tag=${tag}`);
    await waitFinished(t.http, owner.headers, l.SearchID);
    const url = `/api/searchctrl/${l.SearchID}/renderer/text`;
    const p1 = await request(t.http).get(`${url}?sid=${l.SearchSessionID}&first=0&last=10`).set(owner.headers).expect(200);
    expect(p1.body).toEqual(expect.objectContaining({ EntryCount: 50, Finished: true, AdditionalEntries: true, EntryRange: expect.objectContaining({ First: 0, Last: 10 }) }));
    expect(p1.body.Entries).toHaveLength(10);
    expect(p1.body.Tags).toEqual({ [tag]: p1.body.Entries[0].Tag });
    expect(p1.body.Entries[0]).toEqual({ TS: expect.any(String), SRC: expect.any(String), Tag: expect.any(Number), Data: expect.any(String), Enumerated: [] });
    const p2 = await request(t.http).get(`${url}?first=45&last=60`).set(owner.headers).expect(200);
    expect(p2.body.Entries).toHaveLength(5);
    expect(p2.body.AdditionalEntries).toBe(false);
    const all = await request(t.http).get(`${url}?first=0&last=50`).set(owner.headers).expect(200);
    expect([...p1.body.Entries, ...(await request(t.http).get(`${url}?first=10&last=50`).set(owner.headers)).body.Entries]).toEqual(all.body.Entries);
    const texts = (all.body.Entries as Array<{ Data: string }>).map((e) => Buffer.from(e.Data, 'base64').toString()).sort();
    expect(new Set(texts).size).toBe(50);
    const start = new Date(BASE + 10_000).toISOString();
    const end = new Date(BASE + 20_000).toISOString();
    const byTime = await request(t.http).get(`${url}?start=${start}&end=${end}`).set(owner.headers).expect(200);
    expect(byTime.body.Entries).toHaveLength(10);
    for (const e of byTime.body.Entries as Array<{ TS: string }>) expect(Date.parse(e.TS)).toBeGreaterThanOrEqual(BASE + 10_000);
    const pagedTime = await request(t.http).get(`${url}?start=${start}&end=${end}&first=8&last=20`).set(owner.headers).expect(200);
    expect(pagedTime.body.Entries).toHaveLength(2);
    await request(t.http).get(`${url}?first=5&last=2`).set(owner.headers).expect(400);
    await request(t.http).get(`${url}?first=-1`).set(owner.headers).expect(400);
    await request(t.http).get(`${url}?start=notatime`).set(owner.headers).expect(400);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/table`).set(owner.headers).expect(400);
    await request(t.http).get(`${url}?sid=00000000-0000-4000-8000-000000000000`).set(owner.headers).expect(404);
  });

  it('walks the contract transitions: background, save, dormant, saved, attach, stop errors, delete', async () => {
    const l = await launch(t.http, owner.headers, `tag=${tag}`);
    const id = l.SearchID;
    await waitFinished(t.http, owner.headers, id);
    expect(await state(t.http, admin, id)).toBe('ACTIVE');
    await request(t.http)
      .patch(`/api/searchctrl/${id}/background`)
      .set(owner.headers)
      .expect(200)
      .expect((r) => expect(r.body).toBeNull());
    expect(await state(t.http, admin, id)).toBe('ACTIVE/BACKGROUNDED');
    await request(t.http).patch(`/api/searchctrl/${id}/background`).set(owner.headers).expect(200);
    await request(t.http).put(`/api/searchctrl/${id}/detach?sid=${l.SearchSessionID}`).set(owner.headers).expect(200);
    expect(await state(t.http, admin, id)).toBe('DORMANT');
    // stop on DORMANT: error, unchanged
    const stopDormant = await request(t.http).put(`/api/searchctrl/${id}/stop`).set(owner.headers).expect(409);
    expect(stopDormant.body).toEqual({ Error: expect.stringContaining('DORMANT'), Code: 'SEARCH_NOT_ACTIVE' });
    expect(await state(t.http, admin, id)).toBe('DORMANT');
    const a = await request(t.http).get(`/api/searchctrl/${id}/attach`).set(owner.headers).expect(200);
    expect(a.body).toEqual(expect.objectContaining({ SearchID: id, SearchSessionID: expect.any(String), RenderModule: 'text' }));
    expect(await state(t.http, admin, id)).toBe('ACTIVE/BACKGROUNDED');
    await request(t.http).put(`/api/searchctrl/${id}/ping?sid=${a.body.SearchSessionID}`).set(owner.headers).send({ Interval: 0 }).expect(200, { Interval: l.RefreshInterval });
    await request(t.http).patch(`/api/searchctrl/${id}/save`).set(owner.headers).send({ name: 'kept', notes: 'for later' }).expect(200);
    expect(await state(t.http, admin, id)).toBe('ACTIVE/SAVING/BACKGROUNDED');
    await request(t.http).put(`/api/searchctrl/${id}/detach?sid=${a.body.SearchSessionID}`).set(owner.headers).expect(200);
    expect(await waitState(t.http, admin, id, 'DORMANT/SAVED')).toBe('DORMANT/SAVED');
    expect(fs.existsSync(path.join(t.config.dataDir, 'searches', 'saved', id, 'entries.jsonl'))).toBe(true);
    expect(fs.existsSync(path.join(t.config.dataDir, 'searches', 'active', id))).toBe(false);
    const info = await request(t.http).get(`/api/searchctrl/${id}/details`).set(owner.headers).expect(200);
    expect(info.body.SaveMetadata).toEqual({ name: 'kept', notes: 'for later' });
    // stop on SAVED: error, unchanged
    await request(t.http).put(`/api/searchctrl/${id}/stop`).set(owner.headers).expect(409);
    expect(await state(t.http, admin, id)).toBe('DORMANT/SAVED');
    await request(t.http).patch(`/api/searchctrl/${id}/background`).set(owner.headers).expect(409);
    const b = await request(t.http).get(`/api/searchctrl/${id}/attach`).set(member.headers).expect(404);
    expect(b.body).toEqual(errorBody('Search not found', 'SEARCH_NOT_FOUND'));
    const c = await request(t.http).get(`/api/searchctrl/${id}/attach`).set(owner.headers).expect(200);
    expect(await state(t.http, admin, id)).toBe('SAVED/ATTACHED');
    await request(t.http).put(`/api/searchctrl/${id}/stop`).set(owner.headers).expect(409);
    expect(await state(t.http, admin, id)).toBe('SAVED/ATTACHED');
    const page = await request(t.http).get(`/api/searchctrl/${id}/renderer/text?sid=${c.body.SearchSessionID}&first=0&last=100`).set(owner.headers).expect(200);
    expect(page.body.Entries).toHaveLength(50);
    await request(t.http).patch(`/api/searchctrl/${id}/save`).set(owner.headers).expect(200);
    await request(t.http).delete(`/api/searchctrl/${id}`).set(owner.headers).expect(200);
    await request(t.http).get(`/api/searchctrl/${id}`).set(owner.headers).expect(404);
    expect(fs.existsSync(path.join(t.config.dataDir, 'searches', 'saved', id))).toBe(false);
    expect(await state(t.http, admin, id)).toBeUndefined();
  });

  it('stops a running search (owner), keeps its output, and a stopped search can still be saved', async () => {
    const l = await launch(t.http, owner.headers, `tag=${tag}`);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/stop`).set(owner.headers).expect(200);
    const s = await waitFinished(t.http, owner.headers, l.SearchID);
    expect(s.body.Finished).toBe(true);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/text`).set(owner.headers).expect(200);
    await request(t.http).patch(`/api/searchctrl/${l.SearchID}/save`).set(owner.headers).set('Content-Type', 'application/json').send('null').expect(200);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/detach?sid=${l.SearchSessionID}`).set(owner.headers).expect(200);
    expect(await waitState(t.http, admin, l.SearchID, 'DORMANT/SAVED')).toBe('DORMANT/SAVED');
    await request(t.http).delete(`/api/searchctrl/${l.SearchID}`).set(admin).expect(200);
  });

  it('deletes a search whose last client detaches when neither backgrounded nor saved', async () => {
    const l = await launch(t.http, owner.headers, `tag=${tag}`);
    await waitFinished(t.http, owner.headers, l.SearchID);
    const dir = path.join(t.config.dataDir, 'searches', 'active', l.SearchID);
    expect(fs.existsSync(dir)).toBe(true);
    const a = await request(t.http).get(`/api/searchctrl/${l.SearchID}/attach`).set(owner.headers).expect(200);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/detach?sid=${l.SearchSessionID}`).set(owner.headers).expect(200);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}`).set(owner.headers).expect(200);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/detach?sid=${l.SearchSessionID}`).set(owner.headers).expect(404);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/detach?sid=${a.body.SearchSessionID}`).set(owner.headers).expect(200);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}`).set(owner.headers).expect(404);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('lets group members view and attach but not stop or delete; strangers see nothing; admins control all', async () => {
    const launchInfo = { method: 'manual', reference: 'ref-1', started: '2024-01-01T00:00:00Z', expires: '2024-01-02T00:00:00Z' };
    const l = await launch(t.http, owner.headers, `tag=${tag}`, { GIDs: [gid], LaunchInfo: launchInfo, Unknown: 'ignored' });
    const id = l.SearchID;
    const seen = await request(t.http).get(`/api/searchctrl/${id}`).set(member.headers).expect(200);
    expect(seen.body[0]).toEqual(expect.objectContaining({ GID: gid, GIDs: [gid], LaunchInfo: launchInfo }));
    const a = await request(t.http).get(`/api/searchctrl/${id}/attach`).set(member.headers).expect(200);
    await request(t.http).get(`/api/searchctrl/${id}/stats?sid=${a.body.SearchSessionID}`).set(member.headers).expect(200);
    await request(t.http).patch(`/api/searchctrl/${id}/background`).set(member.headers).expect(200);
    expect((await request(t.http).put(`/api/searchctrl/${id}/stop`).set(member.headers).expect(403)).body).toEqual(
      errorBody('Only the owner or an admin may change this search', 'SEARCH_NOT_YOURS'),
    );
    await request(t.http).delete(`/api/searchctrl/${id}`).set(member.headers).expect(403);
    await request(t.http).patch(`/api/searchctrl/${id}/save`).set(member.headers).expect(403);
    await request(t.http).put(`/api/searchctrl/${id}/groups`).set(member.headers).send({ GIDs: [] }).expect(403);
    for (const [m, p] of [
      ['get', ''],
      ['get', '/details'],
      ['get', '/attach'],
      ['get', '/stats'],
      ['patch', '/background'],
      ['patch', '/save'],
      ['get', '/download/json'],
    ] as const) {
      const r = await request(t.http)[m](`/api/searchctrl/${id}${p}`).set(stranger.headers);
      expect([p, r.status, r.body]).toEqual([p, 404, errorBody('Search not found', 'SEARCH_NOT_FOUND')]);
    }
    // Contract, Errors: stop or delete by anyone not authorised to modify the search is 403, also
    // for a stranger who cannot see it; an ID no search has stays 404.
    for (const [m, p] of [
      ['put', '/stop'],
      ['delete', ''],
    ] as const) {
      const r = await request(t.http)[m](`/api/searchctrl/${id}${p}`).set(stranger.headers);
      expect([p, r.status, r.body]).toEqual([p, 403, errorBody('Only the owner or an admin may change this search', 'SEARCH_NOT_YOURS')]);
      const unknown = await request(t.http)[m](`/api/searchctrl/1234567890${p}`).set(stranger.headers);
      expect([p, unknown.status, unknown.body]).toEqual([p, 404, errorBody('Search not found', 'SEARCH_NOT_FOUND')]);
    }
    expect((await request(t.http).get('/api/searchctrl').set(stranger.headers).expect(200)).body.map((s: { ID: string }) => s.ID)).not.toContain(id);
    expect((await request(t.http).get('/api/searchctrl').set(member.headers).expect(200)).body.map((s: { ID: string }) => s.ID)).toContain(id);
    expect((await request(t.http).get('/api/searchctrl').set(admin).expect(200)).body.map((s: { ID: string }) => s.ID)).not.toContain(id);
    expect((await request(t.http).get('/api/searchctrl/all').set(admin).expect(200)).body.map((s: { ID: string }) => s.ID)).toContain(id);
    await request(t.http).get('/api/searchctrl/all').set(owner.headers).expect(403);
    await request(t.http).put(`/api/searchctrl/${id}/global`).set(owner.headers).send({ Global: true }).expect(403);
    await request(t.http).put(`/api/searchctrl/${id}/global`).set(admin).send({ Global: true }).expect(200);
    await request(t.http).get(`/api/searchctrl/${id}`).set(stranger.headers).expect(200);
    await request(t.http).put(`/api/searchctrl/${id}/stop`).set(stranger.headers).expect(403);
    await request(t.http)
      .put(`/api/searchctrl/${id}/groups`)
      .set(owner.headers)
      .send({ GIDs: ['x'] })
      .expect(400);
    await request(t.http)
      .put(`/api/searchctrl/${id}/groups`)
      .set(owner.headers)
      .send({ GIDs: [999999] })
      .expect(403);
    await request(t.http).put(`/api/searchctrl/${id}/group`).set(owner.headers).send({ GID: 0 }).expect(200);
    await request(t.http).get(`/api/searchctrl/${id}`).set(member.headers).expect(200);
    await request(t.http).put(`/api/searchctrl/${id}/group`).set(owner.headers).send({ GID: gid }).expect(200);
    const det = await request(t.http).get('/api/searchctrl/details').set(member.headers).expect(200);
    expect(det.body).toContainEqual(expect.objectContaining({ ID: id, GIDs: [gid] }));
    await request(t.http).put(`/api/searchctrl/${id}/groups`).set(owner.headers).send({ GIDs: [] }).expect(200);
    await request(t.http).put(`/api/searchctrl/${id}/global`).set(admin).send({ Global: false }).expect(200);
    expect((await request(t.http).get('/api/searchctrl/details').set(member.headers).expect(200)).body.map((x: { ID: string }) => x.ID)).not.toContain(id);
    await request(t.http).get(`/api/searchctrl/${id}`).set(member.headers).expect(404);
    await request(t.http)
      .put(`/api/searchctrl/${id}/stop`)
      .set(admin)
      .expect((r) => expect([200, 409]).toContain(r.status));
    await request(t.http).delete(`/api/searchctrl/${id}`).set(admin).expect(200);
    await request(t.http).delete(`/api/searchctrl/${id}`).set(admin).expect(404);
  });

  it('shares a launch without GIDs with the default search group: members view, only the owner or an admin stop, delete or save', async () => {
    const u = await createUser(t.http, admin);
    await addToGroup(t.http, admin, u.uid, gid);
    await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(u.headers).send({ GID: gid }).expect(200);
    const l = await launch(t.http, u.headers, `tag=${tag}`);
    expect(l.Info).toEqual(expect.objectContaining({ UID: u.uid, GID: gid, GIDs: [gid] }));
    const id = l.SearchID;
    expect((await request(t.http).get('/api/searchctrl').set(u.headers).expect(200)).body).toEqual([expect.objectContaining({ ID: id, GID: gid, GIDs: [gid] })]);
    expect((await request(t.http).get('/api/searchctrl').set(member.headers).expect(200)).body).toContainEqual(expect.objectContaining({ ID: id, GIDs: [gid] }));
    expect((await request(t.http).get('/api/searchctrl').set(stranger.headers).expect(200)).body.map((s: { ID: string }) => s.ID)).not.toContain(id);
    expect((await request(t.http).get(`/api/searchctrl/${id}`).set(member.headers).expect(200)).body[0]).toEqual(expect.objectContaining({ ID: id, GIDs: [gid] }));
    await waitFinished(t.http, u.headers, id);
    expect((await request(t.http).get(`/api/searchctrl/${id}/renderer/text`).set(member.headers).expect(200)).body.EntryCount).toBe(50);
    const notYours = errorBody('Only the owner or an admin may change this search', 'SEARCH_NOT_YOURS');
    for (const [m, p] of [
      ['put', '/stop'],
      ['delete', ''],
      ['patch', '/save'],
    ] as const) {
      const byMember = await request(t.http)[m](`/api/searchctrl/${id}${p}`).set(member.headers);
      expect([m, p, byMember.status, byMember.body]).toEqual([m, p, 403, notYours]);
      const byStranger = await request(t.http)[m](`/api/searchctrl/${id}${p}`).set(stranger.headers);
      // Stop and delete: 403 for everyone but the owner and admins; save hides the search from strangers.
      expect([m, p, byStranger.status, byStranger.body]).toEqual(m === 'patch' ? [m, p, 404, errorBody('Search not found', 'SEARCH_NOT_FOUND')] : [m, p, 403, notYours]);
    }
    expect(await state(t.http, admin, id)).toBe('ACTIVE');
    // Explicit GIDs win; a cleared default shares with nobody.
    expect((await launch(t.http, u.headers, `tag=${tag}`, { GIDs: [gid] })).Info.GIDs).toEqual([gid]);
    await request(t.http).delete(`/api/users/${u.uid}/searchgroup`).set(u.headers).expect(200);
    const plain = await launch(t.http, u.headers, `tag=${tag}`);
    expect(plain.Info).toEqual(expect.objectContaining({ GID: 0, GIDs: [] }));
    await request(t.http).get(`/api/searchctrl/${plain.SearchID}`).set(member.headers).expect(404);
    await request(t.http).patch(`/api/searchctrl/${id}/save`).set(u.headers).expect(200);
    await request(t.http).delete(`/api/searchctrl/${id}`).set(admin).expect(200);
  });

  it('validates IDs and sessions', async () => {
    await request(t.http).get('/api/searchctrl/abc').set(owner.headers).expect(400);
    await request(t.http).get('/api/searchctrl/-5').set(owner.headers).expect(400);
    await request(t.http).get('/api/searchctrl/123').set(owner.headers).expect(404);
    await request(t.http).put('/api/searchctrl/123/ping?sid=not-a-uuid').set(owner.headers).expect(400);
    const l = await launch(t.http, owner.headers, `tag=${tag}`);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/ping`).set(owner.headers).expect(404);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/ping?sid=${l.SearchSessionID}`).set(owner.headers).send({ Interval: 'x' }).expect(400);
    await request(t.http).patch(`/api/searchctrl/${l.SearchID}/save`).set(owner.headers).set('Content-Type', 'application/json').send('{"notes":').expect(400);
    expect(await state(t.http, admin, l.SearchID)).toBe('ACTIVE');
    const asAdminInfo = await request(t.http).get(`/api/searchctrl/${l.SearchID}`).set(admin).expect(200);
    expect(asAdminInfo.body).toEqual([expect.objectContaining({ ID: l.SearchID, UID: owner.uid })]);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/csv`).set(admin).expect(200);
    await request(t.http).delete(`/api/searchctrl/${l.SearchID}`).set(owner.headers).expect(200);
  });

  it('checks token capabilities', async () => {
    const l = await launch(t.http, owner.headers, `tag=${tag}`);
    const tok = await createToken(t.http, owner.headers, ['Search']);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}`).set(tok.headers).expect(200);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}/attach`).set(tok.headers).expect(403);
    await request(t.http).patch(`/api/searchctrl/${l.SearchID}/save`).set(tok.headers).expect(403);
    await request(t.http).patch(`/api/searchctrl/${l.SearchID}/background`).set(tok.headers).expect(403);
    await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/json`).set(tok.headers).expect(403);
    const none = await createToken(t.http, owner.headers, ['Download']);
    await request(t.http)
      .post('/api/searchctrl/launch')
      .set(none.headers)
      .send({ SearchString: `tag=${tag}` })
      .expect(403);
    await request(t.http).get('/api/searchctrl').set(none.headers).expect(403);
    await request(t.http).put(`/api/searchctrl/${l.SearchID}/stop`).set(none.headers).expect(403);
    await request(t.http).delete(`/api/searchctrl/${l.SearchID}`).set(none.headers).expect(403);
    await request(t.http).delete(`/api/searchctrl/${l.SearchID}`).set(tok.headers).expect(200);
  });

  describe('downloads and archives', () => {
    let id: string;
    beforeAll(async () => {
      const l = await launch(t.http, owner.headers, `tag=${tag}`, { GIDs: [gid] });
      id = l.SearchID;
      await waitFinished(t.http, owner.headers, id);
    });

    it('streams json, csv and text', async () => {
      const json = await request(t.http).get(`/api/searchctrl/${id}/download/json`).set(member.headers).expect(200);
      expect(json.headers['content-type']).toMatch(/application\/json/);
      const entries = JSON.parse(json.text) as Array<{ Data: string }>;
      expect(entries).toHaveLength(50);
      const page = await request(t.http).get(`/api/searchctrl/${id}/renderer/text?first=0&last=50`).set(owner.headers);
      expect(entries).toEqual(page.body.Entries);
      const csv = await request(t.http).get(`/api/searchctrl/${id}/download/csv`).set(owner.headers).expect(200);
      expect(csv.text.split('\r\n')[0]).toBe('TIMESTAMP,TAG,SRC,DATA');
      expect(csv.text.trim().split('\r\n')).toHaveLength(51);
      const text = await request(t.http).get(`/api/searchctrl/${id}/download/text`).set(owner.headers).expect(200);
      expect(text.text.trim().split('\n').sort()).toEqual(entries.map((e) => Buffer.from(e.Data, 'base64').toString()).sort());
      expect(text.headers['content-disposition']).toBe(`attachment; filename="search-${id}.txt"`);
      expect((await request(t.http).get(`/api/searchctrl/${id}/download/pcap`).set(owner.headers).expect(400)).body).toEqual({
        Error: expect.stringContaining('not available'),
        Code: 'FORMAT_NOT_AVAILABLE',
      });
    });

    it('offers only the formats of the renderer', async () => {
      const l = await launch(t.http, owner.headers, `tag=${tag} stats count | table`);
      await waitFinished(t.http, owner.headers, l.SearchID);
      const page = await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/table`).set(owner.headers).expect(200);
      expect(page.body).toEqual(expect.objectContaining({ EntryCount: 1, Finished: true, Entries: { Columns: expect.any(Array), Rows: expect.any(Array) } }));
      await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/text`).set(owner.headers).expect(400);
      await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/archive`).set(owner.headers).expect(400);
      const csv = await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/csv`).set(owner.headers).expect(200);
      expect(csv.text.split('\r\n')[0]).toBe(page.body.Entries.Columns.join(','));
      const json = await request(t.http).get(`/api/searchctrl/${l.SearchID}/download/json`).set(owner.headers).expect(200);
      expect(JSON.parse(json.text)).toEqual(page.body.Entries);
      await request(t.http).delete(`/api/searchctrl/${l.SearchID}`).set(owner.headers).expect(200);
    });

    const archiveOf = async (h: Headers, sid: string): Promise<Buffer> => {
      const r = await request(t.http)
        .get(`/api/searchctrl/${sid}/download/archive`)
        .set(h)
        .buffer(true)
        .parse((res, cb) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => cb(null, Buffer.concat(parts)));
        });
      expect(r.status).toBe(200);
      return r.body as Buffer;
    };

    it('round-trips download then import under the importer ownership (JWT and cookie)', async () => {
      const archive = await archiveOf(member.headers, id);
      expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      const imp = await request(t.http).post('/api/searchctrl/import').set(stranger.headers).attach('file', archive, 'search.tar.gz').expect(200);
      expect(imp.body).toEqual(
        expect.objectContaining({ UID: stranger.uid, GIDs: [], UserQuery: `tag=${tag}`, State: 'DORMANT/SAVED', Import: expect.objectContaining({ Imported: true }) }),
      );
      const newId = imp.body.ID as string;
      expect(newId).not.toBe(id);
      const a = await request(t.http).get(`/api/searchctrl/${id}/renderer/text?first=0&last=100`).set(owner.headers);
      const b = await request(t.http).get(`/api/searchctrl/${newId}/renderer/text?first=0&last=100`).set(stranger.headers).expect(200);
      expect(b.body.Entries).toEqual(a.body.Entries);
      expect(b.body.EntryCount).toBe(50);
      await request(t.http).get(`/api/searchctrl/${newId}`).set(owner.headers).expect(404);
      const jwt = owner.headers.Authorization.replace('Bearer ', '');
      const viaCookie = await request(t.http)
        .post('/api/searchctrl/import')
        .set('Cookie', `token=${jwt}`)
        .set('Host', 'search.example')
        .set('Origin', 'http://search.example')
        .field('GID', String(gid))
        .attach('file', archive, 'x.tar.gz')
        .expect(200);
      expect(viaCookie.body).toEqual(expect.objectContaining({ UID: owner.uid, GIDs: [gid] }));
      await request(t.http).get(`/api/searchctrl/${viaCookie.body.ID}`).set(member.headers).expect(200);
      await request(t.http).post('/api/searchctrl/import').set(stranger.headers).field('GID', String(gid)).attach('file', archive, 'x.tar.gz').expect(403);
      const adminImp = await request(t.http).post('/api/searchctrl/import').set(admin).field('GID', String(gid)).attach('file', archive, 'x.tar.gz').expect(200);
      expect(adminImp.body.GIDs).toEqual([gid]);
      await request(t.http).post('/api/searchctrl/import').attach('file', archive, 'x.tar.gz').expect(401);
      await request(t.http)
        .post('/api/searchctrl/import')
        .set('Cookie', 'token=garbage')
        .set('Host', 'search.example')
        .set('Origin', 'http://search.example')
        .attach('file', archive, 'x.tar.gz')
        .expect(401);
      const tok = await createToken(t.http, owner.headers, ['Search']);
      await request(t.http).post('/api/searchctrl/import').set(tok.headers).attach('file', archive, 'x.tar.gz').expect(403);
    });

    it('refuses hostile archives with 4xx and writes nothing', async () => {
      const savedDir = path.join(t.config.dataDir, 'searches', 'saved');
      const before = fs.readdirSync(savedDir).sort();
      const listBefore = (await request(t.http).get('/api/searchctrl').set(stranger.headers)).body;
      const good = await archiveOf(owner.headers, id);
      const raw = zlib.gunzipSync(good);
      const traversal = await tarGz([{ name: '../../../../tmp/evil.txt', body: Buffer.from('x') }]);
      const symlink = await tarGz([{ name: 'entries.jsonl', type: 'symlink', linkname: '/etc/passwd' }]);
      const hugeHeader = tar.pack();
      const chunks: Buffer[] = [];
      hugeHeader.on('data', (c: unknown) => chunks.push(c as Buffer));
      hugeHeader.entry({ name: 'entries.jsonl', size: 5e11 });
      await new Promise((r) => setTimeout(r, 20));
      const notTarGz = archiveErrors.invalid('not a well-formed gzip-compressed tar archive');
      const cases: Array<[string, Buffer, number, string]> = [
        ['truncated', good.subarray(0, Math.floor(good.length / 2)), 400, notTarGz],
        ['truncated tar', zlib.gzipSync(raw.subarray(0, 1500)), 400, notTarGz],
        ['not gzip', Buffer.from('hello world'), 400, notTarGz],
        ['gzip bomb', zlib.gzipSync(Buffer.alloc(48 << 20)), 413, requestErrors.overLimit('Data beyond the files the archive declares', '256 KiB')],
        ['path traversal', traversal, 400, archiveErrors.invalid('unexpected file "../../../../tmp/evil.txt"')],
        ['absolute path', await tarGz([{ name: '/etc/cron.d/evil', body: Buffer.from('x') }]), 400, archiveErrors.invalid('unexpected file "/etc/cron.d/evil"')],
        ['symlink', symlink, 400, archiveErrors.invalid('entry "entries.jsonl" is not a regular file')],
        ['unknown file', await tarGz([{ name: 'notes.txt', body: Buffer.from('x') }]), 400, archiveErrors.invalid('unexpected file "notes.txt"')],
        ['huge declared size', zlib.gzipSync(Buffer.concat(chunks)), 413, requestErrors.overLimit('entries.jsonl', '1 GiB', 'RENDER_STORE_LIMIT_BYTES')],
        [
          'bad manifest JSON',
          await tarGz([
            { name: 'manifest.json', body: Buffer.from('{"Format":') },
            { name: 'entries.jsonl', body: Buffer.alloc(0) },
          ]),
          400,
          archiveErrors.invalid('manifest.json is not valid JSON'),
        ],
        ['empty', Buffer.alloc(0), 400, notTarGz],
      ];
      for (const [name, body, status, message] of cases) {
        const r = await request(t.http).post('/api/searchctrl/import').set(stranger.headers).attach('file', body, 'a.tar.gz');
        expect([name, r.status, r.body]).toEqual([name, status, errorBody(message, status === 400 ? 'INVALID_ARCHIVE' : 'ARCHIVE_TOO_LARGE')]);
      }
      await request(t.http).post('/api/searchctrl/import').set(stranger.headers).field('GID', 'abc').attach('file', good, 'a.tar.gz').expect(400);
      await request(t.http).post('/api/searchctrl/import').set(stranger.headers).send({}).expect(400);
      expect(fs.readdirSync(savedDir).sort()).toEqual(before);
      expect(fs.readdirSync(path.join(t.config.dataDir, 'searches', 'tmp'))).toEqual([]);
      expect((await request(t.http).get('/api/searchctrl').set(stranger.headers)).body).toEqual(listBefore);
    });
  });
});

describe('search control: ping timeout, limits and restarts', () => {
  it('detaches a session that stops pinging and deletes the search it held; pinging keeps it', async () => {
    const t = await createTestApp({ searchPingTimeoutSeconds: 2, maxSearchesPerUser: 2, renderStoreLimitBytes: 400 });
    let pinger: NodeJS.Timeout | undefined;
    try {
      const admin = await asAdmin(t.http);
      const u = await createUser(t.http, admin);
      const tag = `scping${process.pid}`;
      await ingest(t.http, admin, tag, 5);
      const dropped = await launch(t.http, u.headers, `tag=${tag}`);
      const kept = await launch(t.http, u.headers, `tag=${tag}`);
      // Keep one session alive from the start, however slow the machine is.
      const ping = () => request(t.http).put(`/api/searchctrl/${kept.SearchID}/ping?sid=${kept.SearchSessionID}`).set(u.headers).send({});
      pinger = setInterval(
        () =>
          void ping().then(
            () => undefined,
            () => undefined,
          ),
        200,
      ); // supertest sends only when awaited
      const third = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(u.headers)
        .send({ SearchString: `tag=${tag}`, ...RANGE })
        .expect(429);
      expect(third.body).toEqual({ Error: expect.stringContaining('at most 2'), Code: 'TOO_MANY_SEARCHES' });
      const bg = await launch(t.http, admin, `tag=${tag}`, { Background: true });
      const full = await waitFinished(t.http, admin, bg.SearchID);
      expect(full.body).toEqual(
        expect.objectContaining({ Finished: true, OverLimit: true, LimitDroppedRange: { StartTS: expect.stringMatching(/^2024/), EndTS: expect.stringMatching(/^2024/) } }),
      );
      expect(full.body.EntryCount).toBeLessThan(5);
      const bgInfo = (await request(t.http).get(`/api/searchctrl/${bg.SearchID}/details`).set(admin)).body;
      expect(bgInfo.StoreSize + bgInfo.IndexSize).toBeLessThanOrEqual(400);
      // The unpinged session is detached after the timeout and its search deleted.
      const deadline = Date.now() + 15_000;
      while ((await request(t.http).get(`/api/searchctrl/${dropped.SearchID}`).set(u.headers)).status !== 404 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
      }
      await request(t.http).get(`/api/searchctrl/${dropped.SearchID}`).set(u.headers).expect(404);
      await ping().expect(200);
      // The search leaves the registry first; its files go right after, off the request path.
      const droppedDir = path.join(t.config.dataDir, 'searches', 'active', dropped.SearchID);
      for (const until = Date.now() + 5_000; fs.existsSync(droppedDir) && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
      expect(fs.existsSync(droppedDir)).toBe(false);
      const k = await request(t.http).get('/api/searchctrl').set(u.headers).expect(200);
      expect(k.body).toEqual([expect.objectContaining({ ID: kept.SearchID, State: 'ACTIVE', AttachedClients: 1 })]);
      // The background search's session (never pinged) was opened later than the dropped one's: it ends on its own timeout.
      expect(await waitState(t.http, admin, bg.SearchID, 'DORMANT')).toBe('DORMANT');
      await launch(t.http, u.headers, `tag=${tag}`);
    } finally {
      clearInterval(pinger);
      await t.close();
    }
  });

  it('keeps saved searches, their results and metadata across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchctrl-restart-'));
    let t = await createTestApp({ dataDir });
    try {
      let admin = await asAdmin(t.http);
      const tag = `screstart${process.pid}`;
      await ingest(t.http, admin, tag, 30);
      const l = await launch(t.http, admin, `tag=${tag}`);
      const unsaved = await launch(t.http, admin, `tag=${tag}`, { Background: true });
      await waitFinished(t.http, admin, l.SearchID);
      await request(t.http).patch(`/api/searchctrl/${l.SearchID}/save`).set(admin).send({ notes: 'keep me' }).expect(200);
      await request(t.http).put(`/api/searchctrl/${l.SearchID}/detach?sid=${l.SearchSessionID}`).set(admin).expect(200);
      expect(await waitState(t.http, admin, l.SearchID, 'DORMANT/SAVED')).toBe('DORMANT/SAVED');
      const beforeInfo = (await request(t.http).get(`/api/searchctrl/${l.SearchID}/details`).set(admin)).body;
      const beforePage = (await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/text?first=0&last=100`).set(admin)).body;
      await t.close();
      t = await createTestApp({ dataDir }, t.databaseUrl);
      admin = await asAdmin(t.http);
      const list = (await request(t.http).get('/api/searchctrl').set(admin).expect(200)).body as Array<{ ID: string; State: string }>;
      expect(list.map((s) => [s.ID, s.State])).toEqual([[l.SearchID, 'DORMANT/SAVED']]);
      expect(list.find((s) => s.ID === unsaved.SearchID)).toBeUndefined();
      const afterInfo = (await request(t.http).get(`/api/searchctrl/${l.SearchID}/details`).set(admin).expect(200)).body;
      expect({ ...afterInfo, LastUpdate: 0, Duration: 0 }).toEqual({ ...beforeInfo, LastUpdate: 0, Duration: 0 });
      expect(afterInfo.SaveMetadata).toEqual({ notes: 'keep me' });
      const afterPage = (await request(t.http).get(`/api/searchctrl/${l.SearchID}/renderer/text?first=0&last=100`).set(admin).expect(200)).body;
      expect(afterPage.Entries).toEqual(beforePage.Entries);
      expect(afterPage.Entries).toHaveLength(30);
      await request(t.http).delete(`/api/searchctrl/${l.SearchID}`).set(admin).expect(200);
      await t.close();
      t = await createTestApp({ dataDir }, t.databaseUrl);
      admin = await asAdmin(t.http);
      expect((await request(t.http).get('/api/searchctrl').set(admin).expect(200)).body).toEqual([]);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
