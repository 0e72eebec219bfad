import { randomUUID } from 'node:crypto';
import { Server } from 'node:http';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { errorBody } from '../setup/errors';
import { createToken } from '../setup/tokens';
import { listen, openWs } from '../setup/ws';

const RANGE = { SearchStart: '2024-05-01T00:00:00Z', SearchEnd: '2024-05-02T00:00:00Z' };
const TS = (i: number) => new Date(Date.parse('2024-05-01T10:00:00Z') + i * 60_000).toISOString();
const WEB = [
  { status: 200, host: 'web1' },
  { status: 500, host: 'web2' },
  { status: 404, host: 'web1' },
  { status: 200, host: 'web3' },
  { status: 503, host: 'db1' },
];
const HOSTS_V1 = 'host,owner\nweb1,ann\nweb2,bob\nweb3,ann\n';
const HOSTS_V2 = 'host,owner\nweb1,carl\nweb2,bob\nweb3,ann\n';
const MAIN = 'tag=web json status host | lookup -r hosts host host owner | count by owner | table';
const SMALL_BOUND = 1024;

async function ingest(http: Server, h: Headers, tag: string, docs: object[]): Promise<void> {
  const body = docs.map((d, i) => ({ TS: TS(i), Tag: tag, SRC: '10.0.0.1', Data: Buffer.from(JSON.stringify(d)).toString('base64') }));
  const res = await request(http).put('/api/ingest/json').set(h).send(body);
  if (res.status !== 200) throw new Error(`ingest failed ${res.status} ${JSON.stringify(res.body)}`);
}

async function createResource(http: Server, h: Headers, name: string, csv: string | Buffer, acl: number[] = []): Promise<string> {
  const res = await request(http).post('/api/resources').set(h).send({ ResourceName: name, Description: 'lookup test', GroupACL: acl });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  await upload(http, h, res.body.GUID as string, csv);
  return res.body.GUID as string;
}

async function upload(http: Server, h: Headers, guid: string, csv: string | Buffer): Promise<void> {
  const res = await request(http).put(`/api/resources/${guid}/raw`).set(h).attach('file', Buffer.from(csv), 'table.csv');
  if (res.status !== 200) throw new Error(`upload failed ${res.status} ${JSON.stringify(res.body)}`);
}

const direct = (http: Server, h: Headers, query: string, format = 'csv') =>
  request(http)
    .post('/api/search/direct')
    .set(h)
    .send({ SearchString: query, Format: format, ...RANGE });

async function csvOf(http: Server, h: Headers, query: string): Promise<string> {
  const r = await direct(http, h, query);
  if (r.status !== 200) throw new Error(`search failed ${r.status} ${JSON.stringify(r.body)}`);
  return r.text;
}

/** Launches a persistent search, waits for it and answers its table page (or the failed page). */
async function launched(http: Server, h: Headers, query: string): Promise<request.Response> {
  const l = await request(http)
    .post('/api/searchctrl/launch')
    .set(h)
    .send({ SearchString: query, ...RANGE });
  if (l.status !== 200) return l;
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const s = await request(http).get(`/api/searchctrl/${l.body.SearchID}/stats`).set(h);
    if (s.body.Finished === true) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return request(http).get(`/api/searchctrl/${l.body.SearchID}/renderer/table`).set(h);
}

describe('lookup -r, compound queries and table -save (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;
  let hosts: string;

  beforeAll(async () => {
    t = await createTestApp({ lookupMaxBytes: SMALL_BOUND });
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin);
    member = await createUser(t.http, admin);
    stranger = await createUser(t.http, admin);
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
    await ingest(t.http, admin, 'web', WEB);
    hosts = await createResource(t.http, owner.headers, 'hosts', HOSTS_V1);
  });
  afterAll(() => t.close());

  it('enriches entries from the CSV resource: exact rows by name and by GUID', async () => {
    // db1 has no owner: count by leaves it out
    expect(await csvOf(t.http, owner.headers, MAIN)).toBe('owner,count\r\nann,3\r\nbob,1\r\n');
    expect(await csvOf(t.http, owner.headers, MAIN.replace('-r hosts', `-r ${hosts}`))).toBe('owner,count\r\nann,3\r\nbob,1\r\n');
    const json = await direct(t.http, owner.headers, 'tag=web json status host | lookup -s -r hosts host host owner as who | table host status who', 'json').expect(200);
    expect(json.body.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
      ['web3', '200', 'ann'],
      ['web1', '404', 'ann'],
      ['web2', '500', 'bob'],
      ['web1', '200', 'ann'],
    ]);
    expect(await csvOf(t.http, owner.headers, 'tag=web json host | lookup -v -r hosts host host () | table host')).toBe('host\r\ndb1\r\n');
    // after a condensing module the lookup runs in the merge worker
    expect(await csvOf(t.http, owner.headers, 'tag=web json host | count by host | lookup -r hosts host host owner | table host owner count')).toBe(
      'host,owner,count\r\ndb1,,1\r\nweb1,ann,2\r\nweb2,bob,1\r\nweb3,ann,1\r\n',
    );
  });

  it('launches over the websocket with the same checks', async () => {
    const url = `${await listen(t)}/api/ws/search`;
    const ws = async (u: TestUser) => {
      const o = await openWs(url, [u.headers.Authorization.slice('Bearer '.length)]);
      o.ws.send(JSON.stringify({ Subs: ['PONG', 'parse', 'search', 'attach'] }));
      expect(await o.next()).toEqual({ Resp: 'ACK' });
      return o;
    };
    const refused = await ws(stranger);
    refused.ws.send(JSON.stringify({ type: 'search', data: { SearchString: MAIN, ...RANGE } }));
    expect(await refused.next()).toEqual({ type: 'search', data: { Error: 'ModuleError: lookup: resource "hosts" not found' } });
    refused.ws.close();
    const o = await ws(owner);
    o.ws.send(JSON.stringify({ type: 'search', data: { SearchString: MAIN, ...RANGE } }));
    const resp = (await o.next()).data as { SearchID: string; OutputSearchSubproto: string; Error?: string };
    expect(resp.Error).toBeUndefined();
    o.ws.send(JSON.stringify({ type: 'search', data: { Ok: true, OutputSearchSubproto: resp.OutputSearchSubproto } }));
    let page: request.Response | undefined;
    for (let i = 0; i < 200 && !page?.body?.Finished; i++) {
      await new Promise((r) => setTimeout(r, 50));
      page = await request(t.http).get(`/api/searchctrl/${resp.SearchID}/renderer/table`).set(owner.headers);
    }
    expect(page!.body.Entries.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
      ['ann', '3'],
      ['bob', '1'],
    ]);
    o.ws.close();
  });

  it("refuses another user's unshared resource with the message of a missing one (400, by name and by GUID)", async () => {
    const r = await direct(t.http, stranger.headers, MAIN);
    expect([r.status, r.body]).toEqual([400, { Error: 'ModuleError: lookup: resource "hosts" not found', Code: 'LOOKUP_NOT_FOUND' }]);
    const missing = await direct(t.http, owner.headers, MAIN.replace('-r hosts', '-r nosuch'));
    expect([missing.status, missing.body.Error]).toEqual([400, 'ModuleError: lookup: resource "nosuch" not found']);
    const byGuid = await direct(t.http, stranger.headers, MAIN.replace('-r hosts', `-r ${hosts}`));
    const otherGuid = randomUUID();
    const unknown = await direct(t.http, stranger.headers, MAIN.replace('-r hosts', `-r ${otherGuid}`));
    expect([byGuid.status, byGuid.body.Error]).toEqual([400, `ModuleError: lookup: resource "${hosts}" not found`]);
    expect([unknown.status, unknown.body.Error]).toEqual([400, `ModuleError: lookup: resource "${otherGuid}" not found`]);
    // the persistent launch refuses it the same way, before any search exists
    const l = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(stranger.headers)
      .send({ SearchString: MAIN, ...RANGE });
    expect([l.status, l.body.Error]).toEqual([400, 'ModuleError: lookup: resource "hosts" not found']);
  });

  it('reads a group-shared resource for a member, never for others', async () => {
    expect((await direct(t.http, member.headers, MAIN)).status).toBe(400);
    await request(t.http)
      .put(`/api/resources/${hosts}`)
      .set(owner.headers)
      .send({ GroupACL: [gid] })
      .expect(200);
    expect(await csvOf(t.http, member.headers, MAIN)).toBe('owner,count\r\nann,3\r\nbob,1\r\n');
    expect((await direct(t.http, stranger.headers, MAIN)).body.Error).toBe('ModuleError: lookup: resource "hosts" not found');
    // a member's own resource of the same name comes first
    const mine = await createResource(t.http, member.headers, 'hosts', 'host,owner\nweb1,mia\n');
    expect(await csvOf(t.http, member.headers, MAIN)).toBe('owner,count\r\nmia,2\r\n');
    await request(t.http).delete(`/api/resources/${mine}`).set(member.headers).expect(200);
  });

  it('gives the new answers once the resource changed, in direct and persistent searches', async () => {
    const page = await launched(t.http, owner.headers, MAIN);
    expect(page.body.Entries.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
      ['ann', '3'],
      ['bob', '1'],
    ]);
    await upload(t.http, owner.headers, hosts, HOSTS_V2);
    expect(await csvOf(t.http, owner.headers, MAIN)).toBe('owner,count\r\nann,1\r\nbob,1\r\ncarl,2\r\n');
    const again = await launched(t.http, owner.headers, MAIN);
    expect(again.body.Entries.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
      ['ann', '1'],
      ['bob', '1'],
      ['carl', '2'],
    ]);
    await upload(t.http, owner.headers, hosts, HOSTS_V1);
  });

  it('fails clearly at launch for a resource over LOOKUP_MAX_BYTES, not a CSV, or without the column', async () => {
    const big = `host,owner\n${Array.from({ length: 100 }, (_, i) => `host-${i},owner-${i}`).join('\n')}\n`;
    await createResource(t.http, owner.headers, 'big', big);
    const r = await direct(t.http, owner.headers, MAIN.replace('-r hosts', '-r big'));
    expect([r.status, r.body.Error]).toEqual([
      400,
      `ModuleError: lookup: resource "big" is ${big.length} bytes, more than the lookup limit of ${SMALL_BOUND} bytes (LOOKUP_MAX_BYTES)`,
    ]);
    await createResource(t.http, owner.headers, 'dup', 'a,a\n1,2\n');
    expect((await direct(t.http, owner.headers, 'tag=web json a | lookup -r dup a a b')).body.Error).toBe(
      'ModuleError: lookup: resource "dup" is not a usable CSV table: the header row names column "a" twice',
    );
    expect((await direct(t.http, owner.headers, MAIN.replace('owner |', 'shoe |'))).body.Error).toBe('ModuleError: lookup: resource "hosts" has no column "shoe"');
    expect((await direct(t.http, owner.headers, 'tag=web lookup -r hosts host')).body.Error).toBe('ModuleError: lookup: missing match column');
  });

  it('runs a compound query: the inner table feeds the main query (direct and persistent)', async () => {
    const q =
      '@bad{tag=web json host status>=500 | count by host | table host count}; tag=web json host status | lookup -s -r @bad host host count as errors | table host status errors';
    expect(await csvOf(t.http, owner.headers, q)).toBe('host,status,errors\r\ndb1,503,1\r\nweb2,500,1\r\n');
    const page = await launched(t.http, owner.headers, q);
    expect(page.body.Entries.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
      ['db1', '503', '1'],
      ['web2', '500', '1'],
    ]);
    // inner queries read resources with the caller's rights too
    const withResource =
      '@own{tag=web json host | lookup -s -r hosts host host owner | unique owner | table owner host}; tag=web json host | lookup -s -r @own host host owner | count by owner | table owner count';
    expect(await csvOf(t.http, owner.headers, withResource)).toBe('owner,count\r\nann,1\r\nbob,1\r\n');
    expect((await direct(t.http, stranger.headers, withResource)).body.Error).toBe('ModuleError: lookup: resource "hosts" not found');
  });

  it('names the inner query in its errors and bounds its table by LOOKUP_MAX_BYTES', async () => {
    const bad = await direct(t.http, owner.headers, '@b{tag=web json host | chart}; tag=web json host | lookup -r @b host host x');
    expect([bad.status, bad.body.Error]).toEqual([400, 'ModuleError: inner query @b must end with table']);
    expect((await direct(t.http, owner.headers, '@b{tag=web json host | Nope | table}; tag=web')).body.Error).toBe('ModuleError: Nope is not a valid module (in inner query @b)');
    expect((await direct(t.http, owner.headers, 'tag=web json host | lookup -r @b host host x')).body.Error).toBe(
      'ModuleError: lookup: @b is not an inner query defined before this query',
    );
    await ingest(
      t.http,
      admin,
      'bulk',
      Array.from({ length: 60 }, (_, i) => ({ host: `bulk-host-number-${String(i).padStart(3, '0')}` })),
    );
    const big = await direct(t.http, owner.headers, '@all{tag=bulk json host | table host}; tag=web json host | lookup -r @all host host host as h');
    expect([big.status, big.body.Error]).toEqual([400, `inner query @all: its table takes ${60 * 20} bytes, more than the limit of ${SMALL_BOUND} bytes (LOOKUP_MAX_BYTES)`]);
  });

  it("table -save writes the table as the caller's resource (new, then a new version) and lookups read it", async () => {
    const save = 'tag=web json host | count by host | table -save hostcounts -csv host count';
    expect(await csvOf(t.http, owner.headers, save)).toBe('host,count\r\ndb1,1\r\nweb1,2\r\nweb2,1\r\nweb3,1\r\n');
    const list = (await request(t.http).get('/api/resources').set(owner.headers).expect(200)).body as Array<{
      GUID: string;
      ResourceName: string;
      UID: number;
      VersionNumber: number;
    }>;
    const saved = list.filter((r) => r.ResourceName === 'hostcounts');
    expect(saved).toEqual([expect.objectContaining({ UID: owner.uid, VersionNumber: 1, GroupACL: [], Global: false })]);
    const raw = await request(t.http).get(`/api/resources/${saved[0].GUID}/raw`).set(owner.headers).expect(200);
    expect(raw.text).toBe('host,count\ndb1,1\nweb1,2\nweb2,1\nweb3,1\n');
    expect(await csvOf(t.http, owner.headers, 'tag=web json host | lookup -r hostcounts host host count as seen | unique host | table host seen')).toBe(
      'host,seen\r\ndb1,1\r\nweb3,1\r\nweb1,2\r\nweb2,1\r\n',
    );
    // saving again (here from a persistent search) makes a new version of the same resource
    const page = await launched(t.http, owner.headers, 'tag=web json host status==200 | count by host | table -save hostcounts host count');
    expect(page.body.Entries.Rows.map((r: { Row: string[] }) => r.Row)).toEqual([
      ['web1', '1'],
      ['web3', '1'],
    ]);
    const meta = await request(t.http).get(`/api/resources/${saved[0].GUID}`).set(owner.headers).expect(200);
    expect(meta.body.VersionNumber).toBe(2);
    expect((await request(t.http).get(`/api/resources/${saved[0].GUID}/raw`).set(owner.headers)).text).toBe('host,count\nweb1,1\nweb3,1\n');
    // another user's save makes their own resource; the owner's stays as it is
    await csvOf(t.http, member.headers, 'tag=web json host | count by host | table -save hostcounts host');
    expect((await request(t.http).get(`/api/resources/${saved[0].GUID}`).set(owner.headers)).body.VersionNumber).toBe(2);
    const theirs = ((await request(t.http).get('/api/resources').set(member.headers)).body as Array<{ ResourceName: string; UID: number }>).filter(
      (r) => r.ResourceName === 'hostcounts',
    );
    expect(theirs.map((r) => r.UID)).toEqual([member.uid]);
  });

  it('lets API tokens read resources with ResourceRead and save tables with ResourceWrite only', async () => {
    const searchOnly = await createToken(t.http, owner.headers, ['Search']);
    const r = await direct(t.http, searchOnly.headers, MAIN);
    expect([r.status, r.body]).toEqual([403, errorBody('API token lacks the ResourceRead capability', 'API_TOKEN_LACKS_CAPABILITY')]);
    const reader = await createToken(t.http, owner.headers, ['Search', 'ResourceRead']);
    expect(await csvOf(t.http, reader.headers, MAIN)).toBe('owner,count\r\nann,3\r\nbob,1\r\n');
    const w = await direct(t.http, reader.headers, 'tag=web json host | table -save tokensaved host');
    expect([w.status, w.body]).toEqual([403, errorBody('API token lacks the ResourceWrite capability', 'API_TOKEN_LACKS_CAPABILITY')]);
  });

  it('parses and describes compound queries and table -save flags in /api/parse', async () => {
    const q = '@b{tag=web json host | table host}; tag=web json host | lookup -r @b host host host as h | table -save x h';
    const p = await request(t.http).post('/api/parse').set(owner.headers).send({ SearchString: q }).expect(200);
    expect(p.body).toMatchObject({ GoodQuery: true, RawQuery: q, RenderModule: 'table', Tags: ['web'], CollapsingIndex: 2 });
    const bad = await request(t.http).post('/api/parse').set(owner.headers).send({ SearchString: 'tag=web table -csv x' }).expect(200);
    expect(bad.body).toMatchObject({ GoodQuery: false, ParseError: 'ModuleError: table: -csv needs -save <name>', ModuleIndex: 0 });
  });
});

describe('a 50 MB CSV lookup table (LOOKUP_MAX_BYTES 64 MiB)', () => {
  let t: TestApp;
  let admin: Headers;

  beforeAll(async () => {
    t = await createTestApp({ lookupMaxBytes: 64 * 1024 * 1024, maxResourceSize: 64 * 1024 * 1024 });
    admin = await asAdmin(t.http);
    await ingest(t.http, admin, 'web', [{ host: 'host-0000001' }, { host: 'host-1999999' }, { host: 'nohost' }]);
  });
  afterAll(() => t.close());

  it('loads once per search and answers exactly, in seconds', async () => {
    const rows = 2_000_000;
    const parts = ['host,owner'];
    for (let i = 0; i < rows; i++) parts.push(`host-${String(i).padStart(7, '0')},owner-${i}`);
    const csv = Buffer.from(`${parts.join('\n')}\n`);
    expect(csv.length).toBeGreaterThan(50_000_000);
    await createResource(t.http, admin, 'huge', csv);
    const t0 = Date.now();
    expect(await csvOf(t.http, admin, 'tag=web json host | lookup -r huge host host owner | table host owner')).toBe(
      'host,owner\r\nnohost,\r\nhost-1999999,owner-1999999\r\nhost-0000001,owner-1\r\n',
    );
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});
