import * as jwt from 'jsonwebtoken';
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { authErrors, errorBody, frameError, queryErrors, searchNotFound, searchSocketErrors, sharingErrors, wsErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';
import { listen, openWs, Opened } from '../setup/ws';

type Frame = Record<string, any>;
const BASE = Date.parse('2024-03-01T00:00:00Z');
const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-02T00:00:00Z' };
const N = 30;

async function ingest(http: Server, h: Headers, tag: string, n: number): Promise<void> {
  const body = Array.from({ length: n }, (_, i) => ({ TS: new Date(BASE + i * 1000).toISOString(), Tag: tag, Data: Buffer.from(`entry ${i} of ${tag}`).toString('base64') }));
  const res = await request(http).put('/api/ingest/json').set(h).send(body);
  if (res.status !== 200) throw new Error(`ingest failed ${res.status} ${JSON.stringify(res.body)}`);
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A routed socket: Subs sent and ACK'd. */
async function routed(url: string, jwtValue: string): Promise<Opened> {
  const o = await openWs(url, [jwtValue]);
  opened.push(o);
  o.ws.send(JSON.stringify({ Subs: ['PONG', 'parse', 'search', 'attach'] }));
  expect(await o.next()).toEqual({ Resp: 'ACK' });
  return o;
}

const send = (o: Opened, type: string, data: unknown) => o.ws.send(JSON.stringify({ type, data }));

/** Sends a render request and answers the reply frame's data. */
async function ask(o: Opened, sub: string, data: Frame): Promise<Frame> {
  send(o, sub, data);
  const f = await o.next();
  expect(f.type).toBe(sub);
  return f.data as Frame;
}

/** Starts a search over the socket and ACKs it; answers the StartSearchResponse. */
async function startSearch(o: Opened, query: string, extra: Frame = {}): Promise<Frame> {
  send(o, 'search', { SearchString: query, ...RANGE, ...extra });
  const f = await o.next();
  expect(f.type).toBe('search');
  const resp = f.data as Frame;
  expect(resp.Error).toBeUndefined();
  send(o, 'search', { Ok: true, OutputSearchSubproto: resp.OutputSearchSubproto });
  return resp;
}

async function waitFinished(o: Opened, sub: string): Promise<Frame> {
  for (let i = 0; i < 300; i++) {
    const r = await ask(o, sub, { ID: 3 });
    if (r.Finished) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('search did not finish');
}

const opened: Opened[] = [];
const closed = (o: Opened) => new Promise<void>((r) => (o.ws.readyState === o.ws.CLOSED ? r() : o.ws.once('close', () => r())));

describe('websocket search /api/ws/search', () => {
  let t: TestApp;
  let url: string;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let ownerJwt: string;
  let gid: number;
  const tag = `wss${process.pid}`;
  const attached = async (id: string): Promise<number | undefined> => {
    const r = await request(t.http).get('/api/searchctrl').set(owner.headers).expect(200);
    return (r.body as Frame[]).find((s) => s.ID === id)?.AttachedClients;
  };
  const jwtOf = (u: TestUser) => u.headers.Authorization.slice('Bearer '.length);

  beforeAll(async () => {
    t = await createTestApp();
    url = `${await listen(t)}/api/ws/search`;
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin);
    member = await createUser(t.http, admin);
    stranger = await createUser(t.http, admin);
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
    ownerJwt = jwtOf(owner);
    await ingest(t.http, admin, tag, N);
  });
  afterAll(async () => {
    for (const o of opened) o.ws.terminate();
    await t.close();
  });

  it('routes with Subs/ACK, refuses a bad envelope, echoes PONG and parses good and bad queries', async () => {
    const o = await openWs(url, [ownerJwt]);
    opened.push(o);
    expect(o.ws.protocol).toBe(ownerJwt);
    o.ws.send('not json');
    expect(await o.next()).toEqual({ Resp: 'ERROR', ...frameError(searchSocketErrors.malformedJson) });
    o.ws.send(JSON.stringify({ Subs: ['PONG', 'bogus'] }));
    expect(await o.next()).toEqual({ Resp: 'ERROR', ...frameError('Subs must be a non-empty list of PONG, parse, search, attach') });
    o.ws.send(JSON.stringify({ Subs: ['PONG', 'parse', 'search', 'attach'] }));
    expect(await o.next()).toEqual({ Resp: 'ACK' });

    send(o, 'PONG', {});
    expect(await o.next()).toEqual({ type: 'PONG', data: {} });

    send(o, 'parse', { SearchString: `tag=${tag} limit 10` });
    expect(await o.next()).toEqual({
      type: 'parse',
      data: expect.objectContaining({ Sequence: 0, GoodQuery: true, RawQuery: `tag=${tag} limit 10`, RenderModule: 'text', Tags: [tag], ModuleHints: expect.any(Array) }),
    });
    send(o, 'parse', { SearchString: `tag=${tag} MakeRainbows` });
    expect(await o.next()).toEqual({
      type: 'parse',
      data: expect.objectContaining({ GoodQuery: false, ParseError: queryErrors.module('MakeRainbows is not a valid module'), ModuleIndex: 0 }),
    });
    send(o, 'parse', { SearchString: 42 });
    expect(await o.next()).toEqual({ type: 'parse', data: frameError('SearchString must be a string of at most 65536 characters') });

    o.ws.send('{"broken');
    expect(await o.next()).toEqual({ type: 'ERROR', data: frameError(searchSocketErrors.malformedJson) });
    send(o, 'search77', { ID: 3 });
    expect(await o.next()).toEqual({ type: 'search77', data: frameError(searchSocketErrors.unknownSubprotocol('search77')) });
    o.ws.close();
  });

  it('announces a search, runs it only after the ACK, and serves the render subprotocol', async () => {
    const o = await routed(url, ownerJwt);
    send(o, 'search', { SearchString: `tag=${tag}`, ...RANGE, LaunchInfo: { method: 'manual' } });
    const f = await o.next();
    const resp = f.data as Frame;
    expect(f.type).toBe('search');
    expect(resp).toEqual(
      expect.objectContaining({
        RawQuery: `tag=${tag}`,
        SearchString: `tag=${tag} text`,
        RenderModule: 'text',
        RenderCmd: 'text',
        OutputSearchSubproto: expect.stringMatching(/^search\d+$/),
        SearchID: expect.stringMatching(/^\d+$/),
        SearchStartRange: '2024-03-01T00:00:00.000Z',
        SearchEndRange: '2024-03-02T00:00:00.000Z',
        Background: false,
        NonTemporal: false,
        CollapsingIndex: expect.any(Number),
        Metadata: null,
        LaunchInfo: { method: 'manual' },
        QueryTimeSpecified: false,
        Tags: [tag],
        ModuleHints: [],
        GIDs: [],
        Global: false,
      }),
    );
    expect(resp.Error).toBeUndefined();
    const sub = resp.OutputSearchSubproto as string;
    const id = resp.SearchID as string;
    // Not running before the ACK.
    await request(t.http).get(`/api/searchctrl/${id}`).set(owner.headers).expect(404);
    send(o, 'search', { OK: true, OutputSearchSubproto: sub });

    const count = await waitFinished(o, sub);
    expect(count).toEqual(expect.objectContaining({ ID: 3, EntryCount: N, Finished: true, EntryCountValid: true }));
    const listed = await request(t.http).get('/api/searchctrl').set(owner.headers).expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ ID: id, AttachedClients: 1, State: 'ACTIVE', UserQuery: `tag=${tag}` })]);

    const page = await ask(o, sub, { ID: 0x10, EntryRange: { First: 0, Last: 10 } });
    expect(page).toEqual(expect.objectContaining({ ID: 0x10, EntryCount: N, Finished: true, AdditionalEntries: true, Tags: { [tag]: expect.any(Number) } }));
    expect(page.Entries).toHaveLength(10);
    expect(page.Entries[0]).toEqual({ TS: expect.any(String), SRC: expect.any(String), Tag: page.Tags[tag], Data: expect.any(String), Enumerated: expect.any(Array) });
    const lastPage = await ask(o, sub, { ID: 0x10, EntryRange: { First: 20, Last: 40 } });
    expect(lastPage.Entries).toHaveLength(10);
    expect(lastPage.AdditionalEntries).toBe(false);

    const ranged = await ask(o, sub, { ID: 0x12, EntryRange: { First: 0, Last: 100, StartTS: '2024-03-01T00:00:00Z', EndTS: '2024-03-01T00:00:05Z' } });
    expect(ranged.Entries).toHaveLength(5);

    const details = await ask(o, sub, { ID: 4 });
    expect(details).toEqual(expect.objectContaining({ ID: 4, SearchInfo: expect.objectContaining({ ID: id, UserQuery: `tag=${tag}`, ItemCount: N, RenderModule: 'text' }) }));
    const tags = await ask(o, sub, { ID: 5 });
    expect(tags).toEqual(expect.objectContaining({ ID: 5, Tags: { [tag]: page.Tags[tag] } }));

    send(o, sub, { ID: 0x11 });
    let streamed = 0;
    for (;;) {
      const b = (await o.next()) as Frame;
      expect(b.type).toBe(sub);
      expect(b.data.ID).toBe(0x11);
      if (b.data.Entries.length === 0) {
        expect(b.data.Finished).toBe(true);
        expect(b.data.AdditionalEntries).toBe(false);
        break;
      }
      streamed += b.data.Entries.length;
    }
    expect(streamed).toBe(N);

    expect(await ask(o, sub, { ID: 0x777 })).toEqual({ ID: 0xffffffff, ...frameError('Unknown request ID 1911') });
    expect(await ask(o, sub, { ID: 'x' })).toEqual({ ID: 0xffffffff, ...frameError('ID must be an unsigned 32-bit integer') });
    expect(await ask(o, sub, { ID: 0x10, EntryRange: { First: 10, Last: 5 } })).toEqual({ ID: 0x10, ...frameError('last must not be less than first') });

    // REQ_CLOSE ends the subprotocol and releases the session: the search goes away.
    expect(await ask(o, sub, { ID: 1 })).toEqual({ ID: 1 });
    send(o, sub, { ID: 3 });
    expect(await o.next()).toEqual({ type: sub, data: frameError(searchSocketErrors.unknownSubprotocol(sub)) });
    await waitFor(
      () => request(t.http).get(`/api/searchctrl/${id}`).set(owner.headers),
      (r) => r.status === 404,
    );
    o.ws.close();
  });

  it('refuses a bad search request and drops a search the client declines', async () => {
    const o = await routed(url, ownerJwt);
    send(o, 'search', { SearchString: `tag=${tag} MakeRainbows`, ...RANGE });
    expect(await o.next()).toEqual({ type: 'search', data: frameError(queryErrors.module('MakeRainbows is not a valid module')) });
    send(o, 'search', { SearchString: 5 });
    // A number is named as the wrong type, not as too long.
    expect(await o.next()).toEqual({ type: 'search', data: frameError('SearchString must be a string') });
    send(o, 'search', { SearchString: `tag=${tag}`, SearchStart: 'yesterday' });
    expect(await o.next()).toEqual({ type: 'search', data: frameError('SearchStart must be an RFC3339 timestamp') });
    send(o, 'search', { SearchString: `tag=${tag}`, Global: true });
    expect(await o.next()).toEqual({ type: 'search', data: frameError(sharingErrors.onlyAdminsSetGlobal) });
    send(o, 'search', { SearchString: `tag=${tag}`, ...RANGE });
    const resp = (await o.next()).data as Frame;
    send(o, 'search', { Ok: false, OutputSearchSubproto: resp.OutputSearchSubproto });
    send(o, 'search', { Ok: true, OutputSearchSubproto: resp.OutputSearchSubproto });
    expect(await o.next()).toEqual({ type: 'search', data: { ...frameError(wsErrors.noneWaiting(resp.OutputSearchSubproto)), OutputSearchSubproto: resp.OutputSearchSubproto } });
    await request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(owner.headers).expect(404);
    o.ws.close();
  });

  it('attaches a group member to a running search and denies a stranger', async () => {
    const a = await routed(url, ownerJwt);
    const resp = await startSearch(a, `tag=${tag}`, { GIDs: [gid] });
    await waitFinished(a, resp.OutputSearchSubproto);

    const b = await routed(url, jwtOf(member));
    send(b, 'attach', { ID: resp.SearchID });
    const att = await b.next();
    expect(att).toEqual({
      type: 'attach',
      data: { Subproto: expect.stringMatching(/^attach\d+$/), RendererMod: 'text', RendererCmd: 'text', Info: expect.objectContaining({ ID: resp.SearchID, GIDs: [gid] }) },
    });
    const sub = (att.data as Frame).Subproto as string;
    expect(await ask(b, sub, { ID: 3 })).toEqual(expect.objectContaining({ EntryCount: N, Finished: true }));
    const page = await ask(b, sub, { ID: 0x10, EntryRange: { First: 0, Last: 3 } });
    expect(page.Entries).toHaveLength(3);
    expect(await attached(resp.SearchID)).toBe(2);

    const c = await routed(url, jwtOf(stranger));
    send(c, 'attach', { ID: resp.SearchID });
    expect(await c.next()).toEqual({ type: 'attach', data: frameError(searchNotFound) });
    send(c, 'attach', { ID: 'nope' });
    expect(await c.next()).toEqual({ type: 'attach', data: frameError('ID must be a numeric search ID') });

    // The owner leaving keeps the search while the member is attached; the last one leaving ends it.
    a.ws.close();
    await closed(a);
    expect(
      await waitFor(
        () => attached(resp.SearchID),
        (n) => n === 1,
      ),
    ).toBe(1);
    b.ws.close();
    await waitFor(
      () => request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(owner.headers),
      (r) => r.status === 404,
    );
    await request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(owner.headers).expect(404);
    c.ws.close();
  });

  it('shares a search launched without GIDs with the default search group', async () => {
    const u = await createUser(t.http, admin);
    await addToGroup(t.http, admin, u.uid, gid);
    await request(t.http).put(`/api/users/${u.uid}/searchgroup`).set(u.headers).send({ GID: gid }).expect(200);
    const a = await routed(url, jwtOf(u));
    const resp = await startSearch(a, `tag=${tag}`);
    expect(resp.GIDs).toEqual([gid]);
    await waitFinished(a, resp.OutputSearchSubproto);
    expect((await request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(member.headers).expect(200)).body[0]).toEqual(
      expect.objectContaining({ UID: u.uid, GID: gid, GIDs: [gid] }),
    );
    const b = await routed(url, jwtOf(member));
    send(b, 'attach', { ID: resp.SearchID });
    expect(await b.next()).toEqual({ type: 'attach', data: expect.objectContaining({ Info: expect.objectContaining({ ID: resp.SearchID, GIDs: [gid] }) }) });
    await request(t.http).put(`/api/searchctrl/${resp.SearchID}/stop`).set(member.headers).expect(403);
    const c = await routed(url, jwtOf(stranger));
    send(c, 'attach', { ID: resp.SearchID });
    expect(await c.next()).toEqual({ type: 'attach', data: frameError(searchNotFound) });
    for (const o of [a, b, c]) o.ws.close();
    await waitFor(
      () => request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(u.headers),
      (r) => r.status === 404,
    );
  });

  it('counts nothing as 0 and cuts an entry range beyond the cap instead of refusing it', async () => {
    const o = await routed(url, ownerJwt);
    const table = await startSearch(o, `tag=${tag} grep nosuchtext | count | table`);
    await waitFinished(o, table.OutputSearchSubproto);
    const rows = await ask(o, table.OutputSearchSubproto, { ID: 0x10, EntryRange: { First: 0, Last: 10 } });
    expect(rows).toEqual(expect.objectContaining({ EntryCount: 1, Finished: true, Entries: { Columns: ['count'], Rows: [{ TS: '2024-03-02T00:00:00.000000Z', Row: ['0'] }] } }));
    const text = await startSearch(o, `tag=${tag} grep nosuchtext | count`);
    await waitFinished(o, text.OutputSearchSubproto);
    const entries = await ask(o, text.OutputSearchSubproto, { ID: 0x10 });
    expect(entries.Entries).toEqual([expect.objectContaining({ Enumerated: [expect.objectContaining({ Name: 'count', ValueStr: '0' })] })]);
    const all = await startSearch(o, `tag=${tag}`);
    await waitFinished(o, all.OutputSearchSubproto);
    const page = await ask(o, all.OutputSearchSubproto, { ID: 0x10, EntryRange: { First: 0, Last: 100000 } });
    expect(page).toEqual(expect.objectContaining({ ID: 0x10, AdditionalEntries: false, EntryRange: expect.objectContaining({ First: 0, Last: N }) }));
    expect(page.Error).toBeUndefined();
    expect(page.Entries).toHaveLength(N);
    o.ws.close();
  });

  it('keeps a backgrounded search after the socket closes and lists it over REST', async () => {
    const o = await routed(url, ownerJwt);
    const resp = await startSearch(o, `tag=${tag}`);
    await waitFinished(o, resp.OutputSearchSubproto);
    await request(t.http).patch(`/api/searchctrl/${resp.SearchID}/background`).set(owner.headers).send().expect(200);
    o.ws.close();
    await closed(o);
    const listed = await waitFor(
      () => request(t.http).get('/api/searchctrl').set(owner.headers),
      (r) => (r.body as Frame[]).some((s) => s.ID === resp.SearchID && s.AttachedClients === 0),
    );
    expect(listed.body).toEqual(expect.arrayContaining([expect.objectContaining({ ID: resp.SearchID, AttachedClients: 0, State: 'DORMANT' })]));
    await request(t.http).delete(`/api/searchctrl/${resp.SearchID}`).set(owner.headers).expect(200);
  });

  it('deletes a non-backgrounded search when its socket closes', async () => {
    const o = await routed(url, ownerJwt);
    const resp = await startSearch(o, `tag=${tag}`);
    await waitFinished(o, resp.OutputSearchSubproto);
    await request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(owner.headers).expect(200);
    o.ws.close();
    const r = await waitFor(
      () => request(t.http).get(`/api/searchctrl/${resp.SearchID}`).set(owner.headers),
      (x) => x.status === 404,
    );
    expect(r.status).toBe(404);
    expect(r.body).toEqual(errorBody(searchNotFound, 'SEARCH_NOT_FOUND'));
  });

  it('authenticates through Sec-WebSocket-Protocol and refuses bad, expired and under-privileged credentials', async () => {
    const o = await routed(url, ownerJwt);
    expect(o.ws.protocol).toBe(ownerJwt);
    o.ws.close();
    await expect(openWs(url)).rejects.toMatchObject({
      status: 401,
      body: errorBody('Authentication required: send Authorization: Bearer <JWT> or a Service-Token', 'CREDENTIALS_REQUIRED'),
    });
    const claims = jwt.decode(ownerJwt) as Record<string, unknown>;
    const forged = jwt.sign(claims, 'another-secret-another-secret-xx', { algorithm: 'HS256' });
    await expect(openWs(url, [forged])).rejects.toMatchObject({ status: 401, body: errorBody(authErrors.invalidJwt, 'INVALID_JWT') });
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, t.config.jwtSecret!, { algorithm: 'HS256' });
    await expect(openWs(url, [expired])).rejects.toMatchObject({ status: 401, body: errorBody(authErrors.invalidJwt, 'INVALID_JWT') });
    const noSearch = await createToken(t.http, owner.headers, ['Stats']);
    await expect(openWs(url, [], noSearch.headers)).rejects.toMatchObject({ status: 403, body: errorBody(authErrors.tokenLacks('Search'), 'API_TOKEN_LACKS_CAPABILITY') });
    const withSearch = await createToken(t.http, owner.headers, ['Search']);
    const ok = await openWs(url, [], withSearch.headers);
    opened.push(ok);
    ok.ws.send(JSON.stringify({ Subs: ['PONG', 'attach'] }));
    expect(await ok.next()).toEqual({ Resp: 'ACK' });
    send(ok, 'attach', { ID: '123456789' });
    expect(await ok.next()).toEqual({ type: 'attach', data: frameError(authErrors.tokenLacks('AttachSearch')) });
    ok.ws.close();
  });
});

describe('websocket search: a failed search', () => {
  let t: TestApp;
  let admin: Headers;
  const evil = `wsevil${process.pid}`;

  beforeAll(async () => {
    t = await createTestApp({ searchTimeoutMs: 1000 });
    admin = await asAdmin(t.http);
    const r = await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([{ TS: '2024-03-01T00:00:01Z', Tag: evil, Data: Buffer.from(`${'a'.repeat(40)}b`).toString('base64') }]);
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    for (const o of opened) o.ws.terminate();
    await t.close();
  });

  it('carries the failure in Error on every response, never an empty finished result', async () => {
    const o = await routed(`${await listen(t)}/api/ws/search`, admin.Authorization.slice('Bearer '.length));
    const resp = await startSearch(o, `tag=${evil} regex "(?P<x>(a{1,30}){1,30}$)" | count by x | table x count`);
    const sub = resp.OutputSearchSubproto as string;
    const count = await waitFinished(o, sub);
    const timedOut = 'Search timed out after 1000 ms and was stopped (an expensive regular expression or a large time range may be the cause)';
    const failed = `search failed: ${timedOut}`;
    expect(count).toEqual(expect.objectContaining({ ID: 3, Finished: true, Error: failed }));
    expect(await ask(o, sub, { ID: 0x10, EntryRange: { First: 0, Last: 10 } })).toEqual({ ID: 0x10, Error: failed });
    expect(await ask(o, sub, { ID: 0x11 })).toEqual({ ID: 0x11, Error: failed });
    const details = await ask(o, sub, { ID: 4 });
    expect(details).toEqual(expect.objectContaining({ Error: failed, SearchInfo: expect.objectContaining({ Error: timedOut }) }));
    o.ws.close();
  });
});

/** An open socket acts with the caller's current rights, as the next REST request would. */
describe('rights on an open search socket (e2e)', () => {
  let t: TestApp;
  let url: string;
  let admin: Headers;
  const tag = `wsrights${process.pid}`;
  const jwtOf = (u: TestUser) => u.headers.Authorization.slice('Bearer '.length);
  const closeCode = (o: Opened) => new Promise<number>((resolve) => (o.ws.readyState === o.ws.CLOSED ? resolve(-1) : o.ws.once('close', (code) => resolve(code))));
  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);

  beforeAll(async () => {
    t = await createTestApp();
    url = `${await listen(t)}/api/ws/search`;
    admin = await asAdmin(t.http);
    await ingest(t.http, admin, tag, 10);
  });
  afterAll(async () => {
    for (const o of opened) o.ws.terminate();
    await t.close();
  });

  const finishedSearch = async (owner: TestUser, extra: Frame = {}) => {
    const o = await routed(url, jwtOf(owner));
    const resp = await startSearch(o, `tag=${tag}`, extra);
    await waitFinished(o, resp.OutputSearchSubproto);
    return resp.SearchID as string;
  };

  it("a member removed from the group can no longer read or attach to the group's search", async () => {
    const owner = await createUser(t.http, admin);
    const member = await createUser(t.http, admin);
    const gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
    const id = await finishedSearch(owner, { GIDs: [gid] });
    const b = await routed(url, jwtOf(member));
    send(b, 'attach', { ID: id });
    const sub = ((await b.next()).data as Frame).Subproto as string;
    expect(await ask(b, sub, { ID: 3 })).toEqual(expect.objectContaining({ EntryCount: 10 }));

    await request(t.http).delete(`/api/users/${member.uid}/group/${gid}`).set(admin).expect(200);

    expect(await ask(b, sub, { ID: 0x10, EntryRange: { First: 0, Last: 3 } })).toEqual({ ID: 0x10, ...frameError(searchNotFound) });
    send(b, 'attach', { ID: id });
    expect(await b.next()).toEqual({ type: 'attach', data: frameError(searchNotFound) });
  });

  it('a token narrowed from Search to Ingest gets no further answer: the socket closes with 4403', async () => {
    const u = await createUser(t.http, admin);
    const tok = await createToken(t.http, u.headers, ['Search']);
    const o = await openWs(url, [], tok.headers);
    opened.push(o);
    o.ws.send(JSON.stringify({ Subs: ['PONG', 'parse', 'search', 'attach'] }));
    expect(await o.next()).toEqual({ Resp: 'ACK' });
    await request(t.http)
      .put(`/api/tokens/${tok.id}`)
      .set(u.headers)
      .send({ capabilities: ['Ingest'] })
      .expect(200);
    const code = closeCode(o);
    send(o, 'parse', { SearchString: `tag=${tag}` });
    expect(await o.next()).toEqual({ Resp: 'ERROR', ...frameError(authErrors.tokenLacks('Search')) });
    expect(await code).toBe(4403);
  });

  it("a demoted admin can no longer attach to another user's unshared search", async () => {
    const owner = await createUser(t.http, admin);
    const id = await finishedSearch(owner);
    const boss = await createUser(t.http, admin, { admin: true });
    const o = await routed(url, jwtOf(boss));
    send(o, 'attach', { ID: id });
    expect(((await o.next()).data as Frame).Subproto).toEqual(expect.stringMatching(/^attach\d+$/));
    await request(t.http).delete(`/api/users/${boss.uid}/admin`).set(admin).expect(200);
    send(o, 'attach', { ID: id });
    expect(await o.next()).toEqual({ type: 'attach', data: frameError(searchNotFound) });
  });

  it('closes the sockets of ended sessions at once: logout, lock', async () => {
    const u = await createUser(t.http, admin);
    const o = await routed(url, jwtOf(u));
    const loggedOut = closeCode(o);
    await request(t.http).put('/api/logout').set(u.headers).expect(200);
    expect(await within(loggedOut, 1000)).toBe(4401);

    const v = await createUser(t.http, admin);
    const p = await routed(url, jwtOf(v));
    const locked = closeCode(p);
    await request(t.http).put(`/api/users/${v.uid}/lock`).set(admin).expect(200);
    expect(await within(locked, 1000)).toBe(4401);
  });
});
