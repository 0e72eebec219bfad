import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { getBytes, pngLike, sha256 } from '../setup/blobs';
import { authErrors, errorBody, fieldErrors, fileErrors, nameRule, requestErrors, resourceErrors, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

const MAX = 64 * 1024;
const EMPTY_HASH = '';

describe('resources', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;

  const metaShape = (over: Record<string, unknown> = {}) => ({
    UID: expect.any(Number),
    GUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
    LastModified: expect.any(String),
    VersionNumber: 0,
    GroupACL: [],
    Global: false,
    ResourceName: expect.any(String),
    Description: '',
    Size: 0,
    Hash: EMPTY_HASH,
    Synced: false,
    Domain: 0,
    Labels: [],
    ...over,
  });

  const create = async (h: Headers, body: Record<string, unknown> = {}) => {
    const res = await request(t.http)
      .post('/api/resources')
      .set(h)
      .send({ ResourceName: 'lookup.csv', Description: 'd', ...body });
    if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { GUID: string; [k: string]: unknown };
  };
  const upload = (h: Headers, guid: string, data: Buffer, name = 'data.bin') => request(t.http).put(`/api/resources/${guid}/raw`).set(h).attach('file', data, name);
  const meta = async (guid: string) => (await request(t.http).get(`/api/resources/${guid}`).set(admin).expect(200)).body;

  beforeAll(async () => {
    t = await createTestApp({ maxResourceSize: MAX });
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin);
    member = await createUser(t.http, admin);
    stranger = await createUser(t.http, admin);
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
  });
  afterAll(() => t.close());

  it('creates a resource with empty contents: Size 0, Hash "", VersionNumber 0', async () => {
    const res = await request(t.http)
      .post('/api/resources')
      .set(owner.headers)
      .send({ GroupACL: [gid], Global: false, ResourceName: 'ips', Description: 'known hosts' })
      .expect(200);
    expect(res.body).toEqual(metaShape({ UID: owner.uid, GroupACL: [gid], ResourceName: 'ips', Description: 'known hosts' }));
    expect(new Date(res.body.LastModified).toISOString()).toBe(res.body.LastModified);
    expect(await meta(res.body.GUID)).toEqual(res.body);
    const raw = await getBytes(t.http, `/api/resources/${res.body.GUID}/raw`, owner.headers).expect(200);
    expect(raw.body).toEqual(Buffer.alloc(0));
    const ct = await request(t.http).get(`/api/resources/${res.body.GUID}/contenttype`).set(owner.headers).expect(200);
    expect(ct.body).toEqual({ ContentType: 'application/octet-stream', Body: '' });
  });

  it('defaults GroupACL, Global and Description; GroupACL null means none', async () => {
    const res = await request(t.http).post('/api/resources').set(owner.headers).send({ ResourceName: 'bare', GroupACL: null, Description: null }).expect(200);
    expect(res.body).toEqual(metaShape({ UID: owner.uid, ResourceName: 'bare' }));
  });

  it('stores exact bytes and answers them with a sniffed type, nosniff and an attachment disposition', async () => {
    const r = await create(owner.headers, { ResourceName: 'pic "1".png' });
    const data = pngLike(5000);
    const up = await upload(owner.headers, r.GUID, data, 'evil.html').expect(200);
    expect(up.body).toEqual(metaShape({ UID: owner.uid, GUID: r.GUID, ResourceName: 'pic "1".png', Description: 'd', Size: data.length, Hash: sha256(data), VersionNumber: 1 }));
    expect(new Date(up.body.LastModified).getTime()).toBeGreaterThanOrEqual(new Date(r.LastModified as string).getTime());
    const raw = await getBytes(t.http, `/api/resources/${r.GUID}/raw`, owner.headers).expect(200);
    expect(Buffer.compare(raw.body, data)).toBe(0);
    expect(raw.headers['content-type']).toBe('image/png');
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
    expect(raw.headers['content-length']).toBe(String(data.length));
    expect(raw.headers['content-disposition']).toBe(`attachment; filename="pic _1_.png"; filename*=UTF-8''pic%20%221%22.png`);

    const text = Buffer.from('héllo,wörld\n1,2\n');
    const up2 = await upload(owner.headers, r.GUID, text, 'x.png').expect(200);
    expect(up2.body).toMatchObject({ Size: text.length, Hash: sha256(text), VersionNumber: 2 });
    const raw2 = await getBytes(t.http, `/api/resources/${r.GUID}/raw`, owner.headers).expect(200);
    expect(Buffer.compare(raw2.body, text)).toBe(0);
    expect(raw2.headers['content-type']).toBe('text/plain; charset=utf-8');

    const bin = Buffer.from([0x00, 0xff, 0xfe, 0x01, 0x80]);
    await upload(owner.headers, r.GUID, bin).expect(200);
    const ct = await request(t.http).get(`/api/resources/${r.GUID}/contenttype`).set(owner.headers).expect(200);
    expect(ct.body).toEqual({ ContentType: 'application/octet-stream', Body: bin.toString('base64') });
    expect((await meta(r.GUID)).VersionNumber).toBe(3);
  });

  it('sanitises a hostile-looking but allowed name in Content-Disposition', async () => {
    const r = await create(owner.headers, { ResourceName: 'résumé; x=1' });
    await upload(owner.headers, r.GUID, Buffer.from('a')).expect(200);
    const raw = await getBytes(t.http, `/api/resources/${r.GUID}/raw`, owner.headers).expect(200);
    expect(raw.headers['content-disposition']).toBe(`attachment; filename="r_sum__ x=1"; filename*=UTF-8''r%C3%A9sum%C3%A9%3B%20x%3D1`);
  });

  it('applies the 128/512 rule of GET .../contenttype', async () => {
    const r = await create(owner.headers);
    const data = randomBytes(1000);
    await upload(owner.headers, r.GUID, data).expect(200);
    const body = async (q: string) => Buffer.from((await request(t.http).get(`/api/resources/${r.GUID}/contenttype${q}`).set(owner.headers).expect(200)).body.Body, 'base64');
    expect(await body('')).toEqual(data.subarray(0, 512));
    expect(await body('?bytes=127')).toEqual(data.subarray(0, 512));
    expect(await body('?bytes=0')).toEqual(data.subarray(0, 512));
    expect(await body('?bytes=-5')).toEqual(data.subarray(0, 512));
    expect(await body('?bytes=128')).toEqual(data.subarray(0, 128));
    expect(await body('?bytes=700')).toEqual(data.subarray(0, 700));
    expect(await body('?bytes=1000')).toEqual(data);
    expect(await body('?bytes=5000')).toEqual(data);
    const small = await create(owner.headers);
    const tiny = Buffer.from('just a little text');
    await upload(owner.headers, small.GUID, tiny).expect(200);
    const res = await request(t.http).get(`/api/resources/${small.GUID}/contenttype`).set(owner.headers).expect(200);
    expect(res.body).toEqual({ ContentType: 'text/plain', Body: tiny.toString('base64') });
    for (const bad of ['abc', '1.5', '12abc']) {
      const e = await request(t.http).get(`/api/resources/${r.GUID}/contenttype?bytes=${bad}`).set(owner.headers).expect(400);
      expect(e.body).toEqual(errorBody(requestErrors.invalidRequest('bytes must be an integer'), 'VALIDATION_FAILED'));
    }
  });

  it('rule 1: users change only GroupACL, ResourceName and Description; admins also Global', async () => {
    const r = await create(owner.headers);
    await upload(owner.headers, r.GUID, Buffer.from('abc')).expect(200);
    const before = await meta(r.GUID);
    const sent = {
      ...before,
      UID: 999,
      GUID: '00000000-0000-0000-0000-000000000000',
      Size: 5,
      Hash: 'x',
      VersionNumber: 77,
      Global: true,
      Domain: 3,
      Labels: ['l'],
      Synced: true,
      GroupACL: [gid],
      ResourceName: 'renamed',
      Description: 'new desc',
    };
    const res = await request(t.http).put(`/api/resources/${r.GUID}`).set(owner.headers).send(sent).expect(200);
    expect(res.body).toEqual({ ...before, GroupACL: [gid], ResourceName: 'renamed', Description: 'new desc', LastModified: expect.any(String) });
    const adm = await request(t.http)
      .put(`/api/resources/${r.GUID}`)
      .set(admin)
      .send({ ...res.body, Global: true, UID: 1 })
      .expect(200);
    expect(adm.body).toEqual({ ...res.body, Global: true, LastModified: expect.any(String) });
    expect(await meta(r.GUID)).toEqual(adm.body);
    // A partial body changes only what it names.
    const part = await request(t.http).put(`/api/resources/${r.GUID}`).set(owner.headers).send({ Description: 'only this' }).expect(200);
    expect(part.body).toEqual({ ...adm.body, Description: 'only this', LastModified: expect.any(String) });
  });

  it('only admins create global resources', async () => {
    const e = await request(t.http).post('/api/resources').set(owner.headers).send({ ResourceName: 'g', Global: true }).expect(403);
    expect(e.body).toEqual(errorBody(resourceErrors.onlyAdminsGlobal, 'GLOBAL_RESOURCE_ADMIN_ONLY'));
    const ok = await request(t.http).post('/api/resources').set(admin).send({ ResourceName: 'g', Global: true }).expect(200);
    expect(ok.body).toEqual(metaShape({ UID: 1, ResourceName: 'g', Global: true }));
  });

  it('checks GroupACL: unknown groups are 400, groups the user is not in are 403', async () => {
    const other = await createGroup(t.http, admin);
    const e1 = await request(t.http)
      .post('/api/resources')
      .set(owner.headers)
      .send({ ResourceName: 'x', GroupACL: [999999] })
      .expect(400);
    expect(e1.body).toEqual(errorBody(sharingErrors.unknownGroup(999999, 'GroupACL'), 'UNKNOWN_GROUPS'));
    const e2 = await request(t.http)
      .post('/api/resources')
      .set(owner.headers)
      .send({ ResourceName: 'x', GroupACL: [other] })
      .expect(403);
    expect(e2.body).toEqual(errorBody(sharingErrors.onlyOwnGroups(other), 'NOT_A_MEMBER_OF_GROUPS'));
    const adm = await request(t.http)
      .post('/api/resources')
      .set(admin)
      .send({ ResourceName: 'x', GroupACL: [other] })
      .expect(200);
    expect(adm.body.GroupACL).toEqual([other]);
    // Groups set by an admin survive the owner sending the structure back.
    const r = await create(owner.headers, { GroupACL: [gid] });
    await request(t.http)
      .put(`/api/resources/${r.GUID}`)
      .set(admin)
      .send({ GroupACL: [gid, other] })
      .expect(200);
    const back = await request(t.http)
      .put(`/api/resources/${r.GUID}`)
      .set(owner.headers)
      .send({ ...(await meta(r.GUID)), Description: 'x' })
      .expect(200);
    expect(back.body.GroupACL).toEqual([gid, other]);
  });

  it('lists own, group and global resources; admin=true lists everything for admins only', async () => {
    const t2 = await createTestApp({ maxResourceSize: MAX });
    try {
      const adm = await asAdmin(t2.http);
      const [a, b, c] = [await createUser(t2.http, adm), await createUser(t2.http, adm), await createUser(t2.http, adm)];
      const g = await createGroup(t2.http, adm);
      await addToGroup(t2.http, adm, a.uid, g);
      await addToGroup(t2.http, adm, b.uid, g);
      const mk = async (h: Headers, body: Record<string, unknown>) => (await request(t2.http).post('/api/resources').set(h).send(body).expect(200)).body.GUID as string;
      const aPriv = await mk(a.headers, { ResourceName: 'a1' });
      const aGroup = await mk(a.headers, { ResourceName: 'a2', GroupACL: [g] });
      const cPriv = await mk(c.headers, { ResourceName: 'c1' });
      const glob = await mk(adm, { ResourceName: 'g1', Global: true });
      const admPriv = await mk(adm, { ResourceName: 'z1' });
      const guids = async (h: Headers, q = '') => ((await request(t2.http).get(`/api/resources${q}`).set(h).expect(200)).body as Array<{ GUID: string }>).map((x) => x.GUID).sort();
      expect(await guids(a.headers)).toEqual([aPriv, aGroup, glob].sort());
      expect(await guids(b.headers)).toEqual([aGroup, glob].sort());
      expect(await guids(b.headers, '?admin=true')).toEqual([aGroup, glob].sort());
      expect(await guids(c.headers)).toEqual([cPriv, glob].sort());
      expect(await guids(adm)).toEqual([glob, admPriv].sort());
      expect(await guids(adm, '?admin=true')).toEqual([aPriv, aGroup, cPriv, glob, admPriv].sort());
      expect(await guids(adm, '?admin=false')).toEqual([glob, admPriv].sort());
      const whole = await request(t2.http).get('/api/resources').set(b.headers).expect(200);
      expect(whole.body).toEqual([metaShape({ UID: a.uid, GUID: aGroup, ResourceName: 'a2', GroupACL: [g] }), metaShape({ UID: 1, GUID: glob, ResourceName: 'g1', Global: true })]);
      await request(t2.http).get('/api/resources?admin=maybe').set(adm).expect(400);
    } finally {
      await t2.close();
    }
  });

  it('clones into a private resource owned by the caller, contents included', async () => {
    const r = await create(owner.headers, { GroupACL: [gid], ResourceName: 'orig', Description: 'source' });
    const data = pngLike(300);
    await upload(owner.headers, r.GUID, data).expect(200);
    const res = await request(t.http).post(`/api/resources/${r.GUID}/clone`).set(member.headers).send({ Name: 'my copy' }).expect(200);
    expect(res.body).toEqual(metaShape({ UID: member.uid, ResourceName: 'my copy', Description: 'source', Size: data.length, Hash: sha256(data) }));
    expect(res.body.GUID).not.toBe(r.GUID);
    const raw = await getBytes(t.http, `/api/resources/${res.body.GUID}/raw`, member.headers).expect(200);
    expect(Buffer.compare(raw.body, data)).toBe(0);
    expect(raw.headers['content-type']).toBe('image/png');
    // Independent of the source afterwards.
    await upload(owner.headers, r.GUID, Buffer.from('changed')).expect(200);
    await request(t.http).delete(`/api/resources/${r.GUID}`).set(owner.headers).expect(200);
    const again = await getBytes(t.http, `/api/resources/${res.body.GUID}/raw`, member.headers).expect(200);
    expect(Buffer.compare(again.body, data)).toBe(0);
    // Without a Name the clone keeps the source's name; an empty resource clones too.
    const e = await create(owner.headers, { ResourceName: 'empty one' });
    const c2 = await request(t.http).post(`/api/resources/${e.GUID}/clone`).set(owner.headers).send({}).expect(200);
    expect(c2.body).toEqual(metaShape({ UID: owner.uid, ResourceName: 'empty one', Description: 'd' }));
  });

  it('deletes: the resource and its contents are gone', async () => {
    const r = await create(owner.headers);
    await upload(owner.headers, r.GUID, Buffer.from('bye')).expect(200);
    const res = await request(t.http).delete(`/api/resources/${r.GUID}`).set(owner.headers).expect(200);
    expect(res.body).toBeNull();
    for (const p of ['', '/raw', '/contenttype']) await request(t.http).get(`/api/resources/${r.GUID}${p}`).set(owner.headers).expect(404);
    await request(t.http).delete(`/api/resources/${r.GUID}`).set(owner.headers).expect(404);
  });

  describe('access matrix', () => {
    type Kind = 'private' | 'group' | 'global';
    type Caller = 'owner' | 'member' | 'stranger' | 'admin' | 'admin?admin=true';
    const routes = [
      { name: 'GET meta', write: false, run: (g: string, h: Headers, q: string) => request(t.http).get(`/api/resources/${g}${q}`).set(h) },
      { name: 'GET raw', write: false, run: (g: string, h: Headers, q: string) => request(t.http).get(`/api/resources/${g}/raw${q}`).set(h) },
      { name: 'GET contenttype', write: false, run: (g: string, h: Headers, q: string) => request(t.http).get(`/api/resources/${g}/contenttype${q}`).set(h) },
      { name: 'POST clone', write: false, run: (g: string, h: Headers, q: string) => request(t.http).post(`/api/resources/${g}/clone${q}`).set(h).send({ Name: 'c' }) },
      { name: 'PUT meta', write: true, run: (g: string, h: Headers, q: string) => request(t.http).put(`/api/resources/${g}${q}`).set(h).send({ Description: 'changed' }) },
      {
        name: 'PUT raw',
        write: true,
        run: (g: string, h: Headers, q: string) => request(t.http).put(`/api/resources/${g}/raw${q}`).set(h).attach('file', Buffer.from('new bytes'), 'n'),
      },
      { name: 'DELETE', write: true, run: (g: string, h: Headers, q: string) => request(t.http).delete(`/api/resources/${g}${q}`).set(h) },
    ];
    const expected = (kind: Kind, caller: Caller, write: boolean): number => {
      if (caller === 'owner' || caller.startsWith('admin')) return 200;
      const visible = kind === 'global' || (kind === 'group' && caller === 'member');
      if (!visible) return 404;
      return write ? 403 : 200;
    };
    const make = async (kind: Kind) => {
      const r = await create(owner.headers, { GroupACL: kind === 'group' ? [gid] : [], ResourceName: `m-${kind}` });
      await upload(owner.headers, r.GUID, Buffer.from('original')).expect(200);
      if (kind === 'global') await request(t.http).put(`/api/resources/${r.GUID}`).set(admin).send({ Global: true }).expect(200);
      return r.GUID;
    };
    const headersOf = (c: Caller): [Headers, string] =>
      c === 'owner'
        ? [owner.headers, '']
        : c === 'member'
          ? [member.headers, '']
          : c === 'stranger'
            ? [stranger.headers, '']
            : c === 'admin'
              ? [admin, '']
              : [admin, '?admin=true'];

    for (const kind of ['private', 'group', 'global'] as Kind[]) {
      for (const caller of ['owner', 'member', 'stranger', 'admin', 'admin?admin=true'] as Caller[]) {
        it(`${kind} resource, ${caller}`, async () => {
          const [h, q] = headersOf(caller);
          for (const route of routes) {
            const guid = await make(kind);
            const before = await meta(guid);
            const res = await route.run(guid, h, q);
            const want = expected(kind, caller, route.write);
            expect({ route: route.name, status: res.status }).toEqual({ route: route.name, status: want });
            if (want !== 200) {
              const refused = route.name === 'DELETE' ? resourceErrors.onlyOwnerDeletes : resourceErrors.onlyOwnerChanges;
              expect(res.body).toEqual(want === 404 ? errorBody(resourceErrors.notFound, 'RESOURCE_NOT_FOUND') : errorBody(refused, 'RESOURCE_NOT_YOURS'));
              expect(await meta(guid)).toEqual(before);
            }
          }
        });
      }
    }

    it('a non-admin adding admin=true gains nothing', async () => {
      const guid = await make('private');
      await request(t.http).get(`/api/resources/${guid}?admin=true`).set(stranger.headers).expect(404);
      await request(t.http).delete(`/api/resources/${guid}?admin=true`).set(stranger.headers).expect(404);
      await request(t.http).get(`/api/resources/${guid}?admin=true`).set(owner.headers).expect(200);
    });

    it('answers 401 without credentials', async () => {
      const guid = await make('global');
      for (const route of routes) expect((await route.run(guid, {}, '')).status).toBe(401);
      await request(t.http).get('/api/resources').expect(401);
    });

    it('a token without the capability gets 403 on every route; an admin token acts as a regular user', async () => {
      const guid = await make('group');
      const none = await createToken(t.http, owner.headers, ['DashboardRead']);
      for (const route of routes) {
        const res = await route.run(guid, none.headers, '');
        const capability = route.write || route.name === 'POST clone' ? 'ResourceWrite' : 'ResourceRead';
        expect({ route: route.name, status: res.status, body: res.body }).toEqual({
          route: route.name,
          status: 403,
          body: errorBody(authErrors.tokenLacks(capability), 'API_TOKEN_LACKS_CAPABILITY'),
        });
      }
      await request(t.http).get('/api/resources').set(none.headers).expect(403);
      await request(t.http).post('/api/resources').set(none.headers).send({ ResourceName: 'x' }).expect(403);
      const readOnly = await createToken(t.http, owner.headers, ['ResourceRead']);
      for (const route of routes)
        expect({ route: route.name, status: (await route.run(guid, readOnly.headers, '')).status }).toEqual({
          route: route.name,
          status: route.write || route.name === 'POST clone' ? 403 : 200,
        });
      const adminToken = await createToken(t.http, admin, ['ResourceRead', 'ResourceWrite']);
      const priv = await make('private');
      await request(t.http).get(`/api/resources/${priv}?admin=true`).set(adminToken.headers).expect(404);
      await request(t.http).get(`/api/resources/${guid}`).set(adminToken.headers).expect(404);
      const all = await request(t.http).get('/api/resources?admin=true').set(adminToken.headers).expect(200);
      expect((all.body as Array<{ UID: number; Global: boolean }>).every((r) => r.UID === 1 || r.Global)).toBe(true);
      await request(t.http).post('/api/resources').set(adminToken.headers).send({ ResourceName: 'g', Global: true }).expect(403);
    });
  });

  describe('atomic replacement', () => {
    it('concurrent readers see the complete old or the complete new bytes, and metadata matches the bytes', async () => {
      const r = await create(owner.headers);
      const versions = [Buffer.alloc(48 * 1024, 0x41), Buffer.alloc(40 * 1024, 0x42), pngLike(50 * 1024), Buffer.alloc(60 * 1024, 0x43)];
      await upload(owner.headers, r.GUID, versions[0]).expect(200);
      const known = new Set(versions.map(sha256));
      const readers: Promise<void>[] = [];
      let stop = false;
      for (let i = 0; i < 4; i++) {
        readers.push(
          (async () => {
            while (!stop) {
              const raw = await getBytes(t.http, `/api/resources/${r.GUID}/raw`, owner.headers).expect(200);
              expect(known.has(sha256(raw.body))).toBe(true);
              expect(raw.headers['content-length']).toBe(String(raw.body.length));
              const ct = await request(t.http).get(`/api/resources/${r.GUID}/contenttype?bytes=100000`).set(owner.headers).expect(200);
              expect(known.has(sha256(Buffer.from(ct.body.Body, 'base64')))).toBe(true);
            }
          })(),
        );
      }
      for (let round = 0; round < 3; round++) {
        for (const v of versions.slice(1)) {
          const up = await upload(owner.headers, r.GUID, v).expect(200);
          expect(up.body).toMatchObject({ Size: v.length, Hash: sha256(v) });
        }
      }
      stop = true;
      await Promise.all(readers);
      const m = await meta(r.GUID);
      const raw = await getBytes(t.http, `/api/resources/${r.GUID}/raw`, owner.headers).expect(200);
      expect(m).toMatchObject({ Size: raw.body.length, Hash: sha256(raw.body), VersionNumber: 10 });
    });

    it('an oversized upload is refused with 413 and leaves contents and metadata untouched', async () => {
      const r = await create(owner.headers);
      const data = pngLike(1000);
      await upload(owner.headers, r.GUID, data).expect(200);
      const before = await meta(r.GUID);
      const res = await upload(owner.headers, r.GUID, randomBytes(MAX + 1));
      expect(res.status).toBe(413);
      expect(res.body).toEqual(errorBody(requestErrors.overLimit('Uploaded file', '64 KiB', 'MAX_RESOURCE_SIZE'), 'FILE_TOO_LARGE'));
      expect(await meta(r.GUID)).toEqual(before);
      const raw = await getBytes(t.http, `/api/resources/${r.GUID}/raw`, owner.headers).expect(200);
      expect(Buffer.compare(raw.body, data)).toBe(0);
      // Exactly the limit is fine.
      const exact = randomBytes(MAX);
      const ok = await upload(owner.headers, r.GUID, exact).expect(200);
      expect(ok.body).toMatchObject({ Size: MAX, Hash: sha256(exact), VersionNumber: 2 });
    });

    it('leaves no temporary or orphaned blob files behind', async () => {
      const r = await create(owner.headers);
      await upload(owner.headers, r.GUID, Buffer.from('one')).expect(200);
      await upload(owner.headers, r.GUID, randomBytes(MAX + 10)).expect(413);
      await upload(owner.headers, r.GUID, Buffer.from('two')).expect(200);
      await request(t.http).put(`/api/resources/${r.GUID}/raw`).set(owner.headers).field('x', 'y').expect(400);
      const dir = `${t.config.dataDir}/blobs/resources`;
      await new Promise((res) => setTimeout(res, 100));
      expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      const db = new Client({ connectionString: t.databaseUrl });
      await db.connect();
      try {
        const rows = (await db.query('SELECT content_id, name, version_number FROM resource WHERE content_id IS NOT NULL')).rows as Array<{ content_id: string }>;
        const orphans = fs.readdirSync(dir).filter((f) => !rows.some((r) => r.content_id === f));
        expect(orphans.map((o) => [o, fs.statSync(`${dir}/${o}`).size, fs.readFileSync(`${dir}/${o}`).subarray(0, 20).toString()])).toEqual([]);
        expect(fs.readdirSync(dir).sort()).toEqual(rows.map((r) => r.content_id).sort());
      } finally {
        await db.end();
      }
    });
  });

  describe('bad input', () => {
    it('refuses invalid UUIDs with 400 and unknown ones with 404', async () => {
      for (const p of ['not-a-uuid', '123', '00000000-0000-0000-0000-00000000000g', "x'%20OR%201=1"]) {
        const res = await request(t.http).get(`/api/resources/${p}`).set(owner.headers).expect(400);
        expect(res.body).toEqual(errorBody(requestErrors.invalidUuid(decodeURIComponent(p)), 'INVALID_UUID'));
      }
      await request(t.http).put('/api/resources/nope/raw').set(owner.headers).attach('file', Buffer.from('x'), 'x').expect(400);
      const unknown = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
      for (const p of ['', '/raw', '/contenttype']) {
        const res = await request(t.http).get(`/api/resources/${unknown}${p}`).set(owner.headers).expect(404);
        expect(res.body).toEqual(errorBody(resourceErrors.notFound, 'RESOURCE_NOT_FOUND'));
      }
      await request(t.http).put(`/api/resources/${unknown}/raw`).set(owner.headers).attach('file', Buffer.from('x'), 'x').expect(404);
      await request(t.http).delete(`/api/resources/${unknown}`).set(owner.headers).expect(404);
      await request(t.http).post(`/api/resources/${unknown}/clone`).set(owner.headers).send({}).expect(404);
      // Upper-case GUIDs address the same resource.
      const r = await create(owner.headers);
      await request(t.http).get(`/api/resources/${r.GUID.toUpperCase()}`).set(owner.headers).expect(200);
    });

    it('refuses empty, malformed and file-less multipart bodies with 400 and keeps the contents', async () => {
      const r = await create(owner.headers);
      await upload(owner.headers, r.GUID, Buffer.from('keep me')).expect(200);
      const before = await meta(r.GUID);
      const url = `/api/resources/${r.GUID}/raw`;
      const cases = [
        [request(t.http).put(url).set(owner.headers), errorBody(fileErrors.filePartRequired, 'FILE_PART_REQUIRED')],
        [
          request(t.http).put(url).set(owner.headers).set('Content-Type', 'multipart/form-data; boundary=xyz').send(''),
          errorBody(fileErrors.malformedMultipart, 'MALFORMED_MULTIPART'),
        ],
        [request(t.http).put(url).set(owner.headers).set('Content-Type', 'multipart/form-data').send('garbage'), errorBody(fileErrors.malformedMultipart, 'MALFORMED_MULTIPART')],
        [
          request(t.http)
            .put(url)
            .set(owner.headers)
            .set('Content-Type', 'multipart/form-data; boundary=xyz')
            .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\ntruncated'),
          errorBody(fileErrors.malformedMultipart, 'MALFORMED_MULTIPART'),
        ],
        [request(t.http).put(url).set(owner.headers).field('name', 'no file'), errorBody(fileErrors.filePartRequired, 'FILE_PART_REQUIRED')],
        [request(t.http).put(url).set(owner.headers).send({ file: 'json is not multipart' }), errorBody(fileErrors.filePartRequired, 'FILE_PART_REQUIRED')],
        [request(t.http).put(url).set(owner.headers).attach('other', Buffer.from('x'), 'x'), errorBody(resourceErrors.unexpectedPart('other'), 'MULTIPART_UNEXPECTED_FILE_PART')],
      ] as const;
      for (const [c, body] of cases) {
        const res = await c;
        expect(res.status).toBe(400);
        expect(res.body).toEqual(body);
      }
      const two = await request(t.http).put(url).set(owner.headers).attach('file', Buffer.from('a'), 'a').attach('file', Buffer.from('b'), 'b');
      expect(two.status).toBe(413);
      expect(await meta(r.GUID)).toEqual(before);
      const raw = await getBytes(t.http, url, owner.headers).expect(200);
      expect(raw.body.toString()).toBe('keep me');
    });

    it('refuses hostile names, control characters, wrong types and malformed JSON with 400', async () => {
      const { invalidRequest } = requestErrors;
      const badName = invalidRequest(nameRule('ResourceName'));
      const longName = invalidRequest(fieldErrors.maxLength('ResourceName', 255));
      const problems: Array<[object, string]> = [
        [{ ResourceName: '../../etc/passwd' }, badName],
        [{ ResourceName: 'a/b' }, badName],
        [{ ResourceName: 'a\\b' }, badName],
        [{ ResourceName: '..' }, badName],
        [{ ResourceName: 'nul\u0000byte' }, badName],
        [{ ResourceName: 'new\nline' }, badName],
        [{ ResourceName: '' }, badName],
        [{ ResourceName: 'x'.repeat(256) }, longName],
        [{ ResourceName: 5 }, longName],
        [{}, longName],
        [{ ResourceName: 'ok', Description: 'nul\u0000' }, invalidRequest('Description must not contain NUL or control characters')],
        [{ ResourceName: 'ok', Description: 'x'.repeat(5000) }, invalidRequest(fieldErrors.maxLength('Description', 4096))],
        [{ ResourceName: 'ok', GroupACL: 'all' }, invalidRequest('GroupACL must be an array')],
        [{ ResourceName: 'ok', GroupACL: [1.5] }, invalidRequest(fieldErrors.each('GroupACL', 'must be an integer number'))],
        [{ ResourceName: 'ok', GroupACL: [-1] }, invalidRequest(fieldErrors.each('GroupACL', 'must not be less than 1'))],
        [{ ResourceName: 'ok', Global: 'yes' }, invalidRequest(fieldErrors.boolean('Global'))],
      ];
      const bad = problems.map(([body]) => body);
      const messages = new Map(problems);
      const count = async () => ((await request(t.http).get('/api/resources').set(owner.headers).expect(200)).body as unknown[]).length;
      const n = await count();
      for (const body of bad) {
        const res = await request(t.http).post('/api/resources').set(owner.headers).send(body);
        expect({ body, status: res.status, error: res.body }).toEqual({ body, status: 400, error: errorBody(messages.get(body)!, 'VALIDATION_FAILED') });
      }
      const malformed = await request(t.http).post('/api/resources').set(owner.headers).set('Content-Type', 'application/json').send('{"ResourceName":').expect(400);
      expect(malformed.body).toEqual(errorBody(requestErrors.malformedJson, 'MALFORMED_JSON'));
      expect(await count()).toBe(n);

      const r = await create(owner.headers);
      const before = await meta(r.GUID);
      for (const body of bad.filter((b) => 'ResourceName' in b && b.ResourceName !== 'ok')) {
        await request(t.http).put(`/api/resources/${r.GUID}`).set(owner.headers).send(body).expect(400);
      }
      await request(t.http).post(`/api/resources/${r.GUID}/clone`).set(owner.headers).send({ Name: '../../etc/passwd' }).expect(400);
      await request(t.http).post(`/api/resources/${r.GUID}/clone`).set(owner.headers).send({ Name: 'a\u0000' }).expect(400);
      expect(await meta(r.GUID)).toEqual(before);
      expect(await count()).toBe(n + 1);
    });

    it('a hostile upload file name is only a display name', async () => {
      const r = await create(owner.headers);
      await upload(owner.headers, r.GUID, Buffer.from('data'), '../../../../etc/passwd').expect(200);
      expect(fs.existsSync(`${t.config.dataDir}/etc/passwd`)).toBe(false);
      const raw = await getBytes(t.http, `/api/resources/${r.GUID}/raw`, owner.headers).expect(200);
      expect(raw.body.toString()).toBe('data');
      expect(raw.headers['content-disposition']).toMatch(/^attachment; filename="lookup.csv"/);
    });
  });
});
