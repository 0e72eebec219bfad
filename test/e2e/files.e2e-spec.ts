import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { addToGroup, asAdmin, createGroup, createUser, Headers, TestUser } from '../setup/auth';
import { getBytes, pngLike, sha256 } from '../setup/blobs';
import { errorBody, fieldErrors, fileErrors, nameRule, requestErrors, sharingErrors } from '../setup/errors';
import { createToken } from '../setup/tokens';

const MAX = 32 * 1024;

describe('user files', () => {
  let t: TestApp;
  let admin: Headers;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let gid: number;

  const record = (over: Record<string, unknown> = {}) => ({
    GUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
    ThingUUID: expect.stringMatching(/^[0-9a-f-]{36}$/),
    UID: expect.any(Number),
    GIDs: [],
    Global: false,
    Size: expect.any(Number),
    Type: expect.any(String),
    Name: expect.any(String),
    Desc: '',
    Labels: [],
    Updated: expect.any(String),
    ...over,
  });

  type FileRec = { GUID: string; ThingUUID: string; UID: number; [k: string]: unknown };
  const simple = (h: Headers, data: Buffer, fields: Record<string, string> = {}) => {
    let r = request(t.http).post('/api/files').set(h).attach('file', data, 'upload.bin');
    for (const [k, v] of Object.entries({ name: 'notes.txt', desc: 'a file', ...fields })) r = r.field(k, v);
    return r;
  };
  const detailed = (h: Headers, data: Buffer, meta: unknown) =>
    request(t.http)
      .post('/api/files')
      .set(h)
      .attach('file', data, 'upload.bin')
      .field('meta', typeof meta === 'string' ? meta : JSON.stringify(meta));
  const make = async (h: Headers, data: Buffer, meta: Record<string, unknown> = {}): Promise<FileRec> => {
    const res = await detailed(h, data, { Name: 'f.bin', Desc: '', ...meta });
    if (res.status !== 200) throw new Error(`create file failed ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as FileRec;
  };
  const details = async (thing: string) => (await request(t.http).get(`/api/files/${thing}/details?admin=true`).set(admin).expect(200)).body;
  const allFiles = async () => (await request(t.http).get('/api/files?admin=true').set(admin).expect(200)).body as FileRec[];

  beforeAll(async () => {
    t = await createTestApp({ maxFileSize: MAX });
    admin = await asAdmin(t.http);
    owner = await createUser(t.http, admin);
    member = await createUser(t.http, admin);
    stranger = await createUser(t.http, admin);
    gid = await createGroup(t.http, admin);
    await addToGroup(t.http, admin, owner.uid, gid);
    await addToGroup(t.http, admin, member.uid, gid);
  });
  afterAll(() => t.close());

  it('creates with the simple format and answers the JSON record', async () => {
    const data = Buffer.from('some notes\n');
    const res = await simple(owner.headers, data).expect(200);
    expect(res.body).toEqual(record({ UID: owner.uid, Size: data.length, Type: 'text/plain', Name: 'notes.txt', Desc: 'a file' }));
    expect(res.body.GUID).not.toBe(res.body.ThingUUID);
    const got = await getBytes(t.http, `/api/files/${res.body.GUID}`, owner.headers).expect(200);
    expect(got.body.toString()).toBe('some notes\n');
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-disposition']).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    const d = await request(t.http).get(`/api/files/${res.body.GUID}/details`).set(owner.headers).expect(200);
    expect(d.body).toEqual(res.body);
  });

  it('uses a supplied guid (lower-cased) and refuses a second file with the same GUID for the same owner', async () => {
    const guid = randomUUID();
    const res = await simple(owner.headers, Buffer.from('x'), { guid: guid.toUpperCase() }).expect(200);
    expect(res.body.GUID).toBe(guid);
    const dup = await simple(owner.headers, Buffer.from('y'), { guid }).expect(409);
    expect(dup.body).toEqual(errorBody(requestErrors.duplicate, 'ALREADY_EXISTS'));
    // Another user may use the same GUID.
    await simple(stranger.headers, Buffer.from('z'), { guid }).expect(200);
    await simple(owner.headers, Buffer.from('y'), { guid: 'not-a-uuid' }).expect(400);
  });

  it('falls back to the upload file name only when it is a safe display name', async () => {
    const ok = await request(t.http).post('/api/files').set(owner.headers).attach('file', Buffer.from('a'), 'report.csv').expect(200);
    expect(ok.body).toEqual(record({ UID: owner.uid, Size: 1, Type: 'text/plain', Name: 'report.csv' }));
    // The multipart parser keeps only the last path segment of a client file name.
    const stripped = await request(t.http).post('/api/files').set(owner.headers).attach('file', Buffer.from('a'), '../../etc/passwd').expect(200);
    expect(stripped.body.Name).toBe('passwd');
    const bad = await request(t.http).post('/api/files').set(owner.headers).attach('file', Buffer.from('a'), '..').expect(400);
    // A file name the parser cannot use leaves no file part at all.
    expect(bad.body).toEqual(errorBody(fileErrors.filePartRequired, 'FILE_PART_REQUIRED'));
    const noName = await request(t.http).post('/api/files').set(owner.headers).attach('file', Buffer.from('a'), 'a\u0001b').expect(400);
    expect(noName.body).toEqual(errorBody(fileErrors.malformedMultipart, 'MALFORMED_MULTIPART'));
    const n = (await allFiles()).length;
    const tooLong = await request(t.http)
      .post('/api/files')
      .set(owner.headers)
      .attach('file', Buffer.from('a'), `${'x'.repeat(300)}.txt`)
      .expect(400);
    expect(tooLong.body).toEqual(errorBody('A file name is required (field "name", or "Name" in "meta")', 'FILE_NAME_REQUIRED'));
    expect((await allFiles()).length).toBe(n);
  });

  it('creates with the detailed format; only admins set another UID or Global', async () => {
    const data = pngLike(200);
    const res = await detailed(owner.headers, data, { UID: owner.uid, GIDs: [gid], Global: false, Name: 'pic.png', Desc: 'picture', Labels: ['a', 'b'], Extra: 'ignored' }).expect(
      200,
    );
    expect(res.body).toEqual(record({ UID: owner.uid, GIDs: [gid], Size: data.length, Type: 'image/png', Name: 'pic.png', Desc: 'picture', Labels: ['a', 'b'] }));
    const n = (await allFiles()).length;
    expect((await detailed(owner.headers, data, { UID: member.uid, Name: 'x' }).expect(403)).body).toEqual(
      errorBody('Only admins can create files for another user', 'FILE_FOR_OTHER_USER_ADMIN_ONLY'),
    );
    expect((await detailed(owner.headers, data, { Global: true, Name: 'x' }).expect(403)).body).toEqual(errorBody('Only admins can create global files', 'GLOBAL_FILE_ADMIN_ONLY'));
    expect((await detailed(owner.headers, data, { GIDs: [999999], Name: 'x' }).expect(400)).body).toEqual(errorBody(sharingErrors.unknownGroup(999999, 'GIDs'), 'UNKNOWN_GROUPS'));
    const other = await createGroup(t.http, admin);
    expect((await detailed(owner.headers, data, { GIDs: [other], Name: 'x' }).expect(403)).body).toEqual(errorBody(sharingErrors.onlyOwnGroups(other), 'NOT_A_MEMBER_OF_GROUPS'));
    expect((await detailed(admin, data, { UID: 999999, Name: 'x' }).expect(400)).body).toEqual(errorBody('Unknown user 999999', 'FILE_OWNER_UNKNOWN'));
    expect((await allFiles()).length).toBe(n);
    const adm = await detailed(admin, data, { UID: member.uid, Global: true, GIDs: [other], Name: 'for member' }).expect(200);
    expect(adm.body).toEqual(record({ UID: member.uid, Global: true, GIDs: [other], Size: data.length, Type: 'image/png', Name: 'for member' }));
  });

  it('refuses bad meta JSON, wrong types and hostile names with 400 and creates nothing', async () => {
    const n = (await allFiles()).length;
    const data = Buffer.from('x');
    const badName = errorBody(fileErrors.invalidMeta(nameRule('Name')), 'FILE_FIELDS_INVALID');
    const badLabel = errorBody(fileErrors.invalidMeta('Labels must be 1-128 characters without control characters'), 'FILE_FIELDS_INVALID');
    const badMeta: Array<[string, ReturnType<typeof errorBody>]> = [
      ['{', errorBody(fileErrors.metaNotJson, 'INVALID_JSON_FIELD')],
      ['null', errorBody(fileErrors.metaNotObject, 'FILE_META_NOT_AN_OBJECT')],
      ['[1]', errorBody(fileErrors.metaNotObject, 'FILE_META_NOT_AN_OBJECT')],
      ['"str"', errorBody(fileErrors.metaNotObject, 'FILE_META_NOT_AN_OBJECT')],
      ['{"Name": 5}', errorBody(fileErrors.invalidMeta(fieldErrors.maxLength('Name', 255)), 'FILE_FIELDS_INVALID')],
      ['{"Name": "../../etc/passwd"}', badName],
      ['{"Name": "a\\u0000b"}', badName],
      ['{"Name": "line\\nbreak"}', badName],
      ['{"Name": "ok", "GIDs": "x"}', errorBody(fileErrors.invalidMeta('GIDs must be an array'), 'FILE_FIELDS_INVALID')],
      ['{"Name": "ok", "Labels": [1]}', badLabel],
      ['{"Name": "ok", "Labels": ["bad\\nlabel"]}', badLabel],
      ['{"Name": "ok", "Desc": "nul\\u0000"}', errorBody(fileErrors.invalidMeta('Desc must not contain NUL or control characters'), 'FILE_FIELDS_INVALID')],
      ['{"Name": "ok", "UID": "1"}', errorBody(fileErrors.invalidMeta(fieldErrors.max('UID', 2147483647)), 'FILE_FIELDS_INVALID')],
      ['{"Name": "ok", "Global": "true"}', errorBody(fileErrors.invalidMeta(fieldErrors.boolean('Global')), 'FILE_FIELDS_INVALID')],
      ['{"Name": "ok", "GUID": "nope"}', errorBody(fileErrors.invalidMeta(requestErrors.guidMustBeUuid), 'FILE_FIELDS_INVALID')],
    ];
    for (const [meta, body] of badMeta) {
      const res = await detailed(owner.headers, data, meta);
      expect({ meta, status: res.status, body: res.body }).toEqual({ meta, status: 400, body });
    }
    for (const name of ['../../etc/passwd', 'a/b', '..', 'nul\u0000', 'new\nline', 'x'.repeat(256), '']) {
      const res = await simple(owner.headers, data, { name });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
    }
    expect((await allFiles()).length).toBe(n);
  });

  it('refuses empty, file-less and oversized multipart bodies', async () => {
    const n = (await allFiles()).length;
    for (const [c, body] of [
      [request(t.http).post('/api/files').set(owner.headers), errorBody(fileErrors.filePartRequired, 'FILE_PART_REQUIRED')],
      [
        request(t.http).post('/api/files').set(owner.headers).set('Content-Type', 'multipart/form-data; boundary=xyz').send(''),
        errorBody(fileErrors.malformedMultipart, 'MALFORMED_MULTIPART'),
      ],
      [request(t.http).post('/api/files').set(owner.headers).field('name', 'n'), errorBody(fileErrors.filePartRequired, 'FILE_PART_REQUIRED')],
      [request(t.http).post('/api/files').set(owner.headers).send({ name: 'json' }), errorBody(fileErrors.filePartRequired, 'FILE_PART_REQUIRED')],
    ] as const) {
      const res = await c;
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    }
    const big = await simple(owner.headers, randomBytes(MAX + 1)).expect(413);
    expect(big.body).toEqual(errorBody(requestErrors.overLimit('Uploaded file', '32 KiB', 'MAX_FILE_SIZE'), 'FILE_TOO_LARGE'));
    expect((await allFiles()).length).toBe(n);
  });

  it('resolves a shared GUID: owned, then group, then global', async () => {
    const guid = randomUUID();
    // The group's copy comes first: only the first holder of a GUID (or an admin) may share it.
    const grp = await make(owner.headers, Buffer.from('group'), { GUID: guid, GIDs: [gid] });
    const glob = await make(admin, Buffer.from('global'), { GUID: guid, Global: true, UID: stranger.uid });
    const body = async (h: Headers) => (await getBytes(t.http, `/api/files/${guid}`, h).expect(200)).body.toString();
    expect(await body(member.headers)).toBe('group');
    expect(await body(stranger.headers)).toBe('global');
    const outsider = await createUser(t.http, admin);
    expect(await body(outsider.headers)).toBe('global');
    const own = await make(member.headers, Buffer.from('own'), { GUID: guid });
    expect(await body(member.headers)).toBe('own');
    expect((await request(t.http).get(`/api/files/${guid}/details`).set(member.headers).expect(200)).body.ThingUUID).toBe(own.ThingUUID);
    // Admin mode addresses each by ThingUUID.
    for (const [f, text] of [
      [glob, 'global'],
      [grp, 'group'],
      [own, 'own'],
    ] as const) {
      expect((await getBytes(t.http, `/api/files/${f.ThingUUID}?admin=true`, admin).expect(200)).body.toString()).toBe(text);
    }
  });

  it('replaces contents with POST and PUT; only the file part is honoured', async () => {
    const f = await make(owner.headers, Buffer.from('v1'), { Name: 'keep.txt', Desc: 'keep' });
    const v2 = pngLike(100);
    const post = await request(t.http)
      .post(`/api/files/${f.GUID}`)
      .set(owner.headers)
      .attach('file', v2, 'other.png')
      .field('name', 'changed')
      .field('meta', '{"Name":"changed"}')
      .expect(200);
    expect(post.body).toEqual(record({ ...f, Size: v2.length, Type: 'image/png', Name: 'keep.txt', Desc: 'keep', Updated: expect.any(String) }));
    expect(Buffer.compare((await getBytes(t.http, `/api/files/${f.GUID}`, owner.headers).expect(200)).body, v2)).toBe(0);
    const v3 = randomBytes(3000);
    const put = await request(t.http).put(`/api/files/${f.GUID}`).set(owner.headers).attach('file', v3, 'x').expect(200);
    expect(put.body).toEqual(record({ ...f, Size: v3.length, Type: 'application/octet-stream', Name: 'keep.txt', Desc: 'keep', Updated: expect.any(String) }));
    const got = await getBytes(t.http, `/api/files/${f.GUID}`, owner.headers).expect(200);
    expect(sha256(got.body)).toBe(sha256(v3));
    // An oversized or file-less replacement leaves everything as it was.
    const before = await details(f.ThingUUID);
    await request(t.http)
      .put(`/api/files/${f.GUID}`)
      .set(owner.headers)
      .attach('file', randomBytes(MAX + 1), 'x')
      .expect(413);
    await request(t.http).post(`/api/files/${f.GUID}`).set(owner.headers).field('name', 'x').expect(400);
    expect(await details(f.ThingUUID)).toEqual(before);
    expect(sha256((await getBytes(t.http, `/api/files/${f.GUID}`, owner.headers).expect(200)).body)).toBe(sha256(v3));
  });

  it('PATCH changes metadata; UID only by an admin with admin=true; Global only by admins', async () => {
    const f = await make(owner.headers, Buffer.from('m'), { Name: 'a', Desc: 'b' });
    const res = await request(t.http)
      .patch(`/api/files/${f.GUID}`)
      .set(owner.headers)
      .send({ GIDs: [gid], Name: 'renamed', Desc: 'described', Labels: ['x'], Size: 99, Type: 'evil/type', ThingUUID: randomUUID(), UID: owner.uid })
      .expect(200);
    expect(res.body).toEqual({ ...f, GIDs: [gid], Name: 'renamed', Desc: 'described', Labels: ['x'], Updated: expect.any(String) });
    const e1 = await request(t.http).patch(`/api/files/${f.GUID}`).set(owner.headers).send({ UID: member.uid }).expect(403);
    expect(e1.body).toEqual(errorBody("Only an admin using admin=true can change a file's UID", 'FILE_OWNER_CHANGE_ADMIN_MODE_ONLY'));
    const e2 = await request(t.http).patch(`/api/files/${f.GUID}`).set(owner.headers).send({ Global: true }).expect(403);
    expect(e2.body).toEqual(errorBody('Only admins can set Global', 'FILE_GLOBAL_ADMIN_ONLY'));
    const own = await make(admin, Buffer.from('a'), { Name: 'admin file' });
    const e3 = await request(t.http).patch(`/api/files/${own.GUID}`).set(admin).send({ UID: member.uid }).expect(403);
    expect(e3.body).toEqual(errorBody("Only an admin using admin=true can change a file's UID", 'FILE_OWNER_CHANGE_ADMIN_MODE_ONLY'));
    const before = await details(f.ThingUUID);
    expect(before).toEqual(res.body);
    await request(t.http).patch(`/api/files/${f.ThingUUID}?admin=true`).set(admin).send({ UID: 999999 }).expect(400);
    for (const body of [{ Name: '../../etc/passwd' }, { Name: 'a\nb' }, { GIDs: ['x'] }, { Labels: 'x' }, { UID: -1 }]) {
      await request(t.http).patch(`/api/files/${f.GUID}`).set(owner.headers).send(body).expect(400);
    }
    await request(t.http).patch(`/api/files/${f.GUID}`).set(owner.headers).set('Content-Type', 'application/json').send('{"Name":').expect(400);
    expect(await details(f.ThingUUID)).toEqual(before);
    const moved = await request(t.http).patch(`/api/files/${f.ThingUUID}?admin=true`).set(admin).send({ UID: stranger.uid, Global: true }).expect(200);
    expect(moved.body).toEqual({ ...before, UID: stranger.uid, Global: true, Updated: expect.any(String) });
  });

  it('lists what the caller may read; admin=true lists everything for admins only', async () => {
    const t2 = await createTestApp({ maxFileSize: MAX });
    try {
      const adm = await asAdmin(t2.http);
      const [a, b, c] = [await createUser(t2.http, adm), await createUser(t2.http, adm), await createUser(t2.http, adm)];
      const g = await createGroup(t2.http, adm);
      await addToGroup(t2.http, adm, a.uid, g);
      await addToGroup(t2.http, adm, b.uid, g);
      const mk = async (h: Headers, meta: Record<string, unknown>) =>
        (await request(t2.http).post('/api/files').set(h).attach('file', Buffer.from('x'), 'x').field('meta', JSON.stringify(meta)).expect(200)).body.ThingUUID as string;
      const aPriv = await mk(a.headers, { Name: 'a1' });
      const aGroup = await mk(a.headers, { Name: 'a2', GIDs: [g] });
      const cPriv = await mk(c.headers, { Name: 'c1' });
      const glob = await mk(adm, { Name: 'g1', Global: true });
      const admPriv = await mk(adm, { Name: 'z1' });
      const ids = async (h: Headers, q = '') => ((await request(t2.http).get(`/api/files${q}`).set(h).expect(200)).body as FileRec[]).map((x) => x.ThingUUID).sort();
      expect(await ids(a.headers)).toEqual([aPriv, aGroup, glob].sort());
      expect(await ids(b.headers)).toEqual([aGroup, glob].sort());
      expect(await ids(b.headers, '?admin=true')).toEqual([aGroup, glob].sort());
      expect(await ids(c.headers)).toEqual([cPriv, glob].sort());
      expect(await ids(adm)).toEqual([glob, admPriv].sort());
      expect(await ids(adm, '?admin=true')).toEqual([aPriv, aGroup, cPriv, glob, admPriv].sort());
      const whole = await request(t2.http).get('/api/files').set(b.headers).expect(200);
      expect(whole.body).toEqual([
        record({ ThingUUID: aGroup, UID: a.uid, GIDs: [g], Size: 1, Type: 'text/plain', Name: 'a2' }),
        record({ ThingUUID: glob, UID: 1, Global: true, Size: 1, Type: 'text/plain', Name: 'g1' }),
      ]);
    } finally {
      await t2.close();
    }
  });

  it('deletes; the file is gone', async () => {
    const f = await make(owner.headers, Buffer.from('bye'));
    expect((await request(t.http).delete(`/api/files/${f.GUID}`).set(owner.headers).expect(200)).body).toBeNull();
    await request(t.http).get(`/api/files/${f.GUID}`).set(owner.headers).expect(404);
    await request(t.http).get(`/api/files/${f.GUID}/details`).set(owner.headers).expect(404);
    await request(t.http).delete(`/api/files/${f.GUID}`).set(owner.headers).expect(404);
  });

  it('concurrent readers see old or new contents, never a mix', async () => {
    const versions = [Buffer.alloc(20000, 0x61), Buffer.alloc(25000, 0x62), pngLike(24000)];
    const f = await make(owner.headers, versions[0]);
    const known = new Set(versions.map(sha256));
    let stop = false;
    const readers = [0, 1, 2].map(async () => {
      while (!stop) {
        const got = await getBytes(t.http, `/api/files/${f.GUID}`, owner.headers).expect(200);
        expect(known.has(sha256(got.body))).toBe(true);
      }
    });
    for (let i = 0; i < 6; i++) {
      const v = versions[(i % 2) + 1];
      const res = await request(t.http).put(`/api/files/${f.GUID}`).set(owner.headers).attach('file', v, 'v').expect(200);
      expect(res.body.Size).toBe(v.length);
    }
    stop = true;
    await Promise.all(readers);
  });

  it('refuses invalid UUIDs with 400 and unknown ones with 404', async () => {
    for (const p of ['nope', '1', '00000000-0000-0000-0000-00000000000z']) {
      expect((await request(t.http).get(`/api/files/${p}`).set(owner.headers).expect(400)).body).toEqual(errorBody(requestErrors.invalidUuid(p), 'INVALID_UUID'));
      await request(t.http).patch(`/api/files/${p}`).set(owner.headers).send({}).expect(400);
      await request(t.http).delete(`/api/files/${p}`).set(owner.headers).expect(400);
    }
    const unknown = randomUUID();
    expect((await request(t.http).get(`/api/files/${unknown}`).set(owner.headers).expect(404)).body).toEqual(errorBody(fileErrors.notFound, 'FILE_NOT_FOUND'));
    await request(t.http).get(`/api/files/${unknown}/details?admin=true`).set(admin).expect(404);
    await request(t.http).put(`/api/files/${unknown}`).set(owner.headers).attach('file', Buffer.from('x'), 'x').expect(404);
    await request(t.http).get('/api/files?admin=maybe').set(admin).expect(400);
  });

  describe('access matrix', () => {
    type Kind = 'private' | 'group' | 'global';
    type Caller = 'owner' | 'member' | 'stranger' | 'admin' | 'admin?admin=true';
    const routes = [
      { name: 'GET contents', write: false, run: (id: string, h: Headers, q: string) => request(t.http).get(`/api/files/${id}${q}`).set(h) },
      { name: 'GET details', write: false, run: (id: string, h: Headers, q: string) => request(t.http).get(`/api/files/${id}/details${q}`).set(h) },
      {
        name: 'POST contents',
        write: true,
        run: (id: string, h: Headers, q: string) => request(t.http).post(`/api/files/${id}${q}`).set(h).attach('file', Buffer.from('new'), 'n'),
      },
      { name: 'PUT contents', write: true, run: (id: string, h: Headers, q: string) => request(t.http).put(`/api/files/${id}${q}`).set(h).attach('file', Buffer.from('new'), 'n') },
      { name: 'PATCH', write: true, run: (id: string, h: Headers, q: string) => request(t.http).patch(`/api/files/${id}${q}`).set(h).send({ Desc: 'changed' }) },
      { name: 'DELETE', write: true, run: (id: string, h: Headers, q: string) => request(t.http).delete(`/api/files/${id}${q}`).set(h) },
    ];
    const expected = (kind: Kind, caller: Caller, write: boolean): number => {
      if (caller === 'owner' || caller === 'admin?admin=true') return 200;
      const visible = kind === 'global' || (kind === 'group' && caller === 'member');
      if (!visible) return 404;
      return write ? 403 : 200;
    };
    const mk = (kind: Kind) =>
      kind === 'global'
        ? make(admin, Buffer.from('original'), { UID: owner.uid, Global: true })
        : make(owner.headers, Buffer.from('original'), { GIDs: kind === 'group' ? [gid] : [] });

    for (const kind of ['private', 'group', 'global'] as Kind[]) {
      for (const caller of ['owner', 'member', 'stranger', 'admin', 'admin?admin=true'] as Caller[]) {
        it(`${kind} file, ${caller}`, async () => {
          const h = caller === 'owner' ? owner.headers : caller === 'member' ? member.headers : caller === 'stranger' ? stranger.headers : admin;
          for (const route of routes) {
            const f = await mk(kind);
            const [id, q] = caller === 'admin?admin=true' ? [f.ThingUUID, '?admin=true'] : [f.GUID, ''];
            const before = await details(f.ThingUUID);
            const res = await route.run(id, h, q);
            const want = expected(kind, caller, route.write);
            expect({ route: route.name, status: res.status }).toEqual({ route: route.name, status: want });
            if (want !== 200) {
              const refused = route.name === 'DELETE' ? fileErrors.onlyOwnerDeletes : fileErrors.onlyOwnerChanges;
              expect(res.body).toEqual(want === 404 ? errorBody(fileErrors.notFound, 'FILE_NOT_FOUND') : errorBody(refused, 'FILE_NOT_YOURS'));
              expect(await details(f.ThingUUID)).toEqual(before);
              expect((await getBytes(t.http, `/api/files/${f.ThingUUID}?admin=true`, admin).expect(200)).body.toString()).toBe('original');
            }
          }
        });
      }
    }

    it('a non-admin adding admin=true gains nothing', async () => {
      const f = await mk('private');
      await request(t.http).get(`/api/files/${f.ThingUUID}?admin=true`).set(stranger.headers).expect(404);
      await request(t.http).delete(`/api/files/${f.ThingUUID}?admin=true`).set(stranger.headers).expect(404);
      await request(t.http).patch(`/api/files/${f.GUID}?admin=true`).set(owner.headers).send({ UID: member.uid }).expect(403);
      await request(t.http).get(`/api/files/${f.GUID}?admin=true`).set(owner.headers).expect(200);
    });

    it('answers 401 without credentials', async () => {
      const f = await mk('global');
      for (const route of routes) expect((await route.run(f.GUID, {}, '')).status).toBe(401);
      await request(t.http).get('/api/files').expect(401);
    });

    it('a token without the capability gets 403; an admin token is a regular user', async () => {
      const f = await mk('group');
      const none = await createToken(t.http, owner.headers, ['ResourceRead']);
      for (const route of routes) expect({ route: route.name, status: (await route.run(f.GUID, none.headers, '')).status }).toEqual({ route: route.name, status: 403 });
      await request(t.http).get('/api/files').set(none.headers).expect(403);
      await request(t.http).post('/api/files').set(none.headers).attach('file', Buffer.from('x'), 'x').expect(403);
      const readOnly = await createToken(t.http, owner.headers, ['UserFileRead']);
      for (const route of routes)
        expect({ route: route.name, status: (await route.run(f.GUID, readOnly.headers, '')).status }).toEqual({ route: route.name, status: route.write ? 403 : 200 });
      const adminToken = await createToken(t.http, admin, ['UserFileRead', 'UserFileWrite']);
      await request(t.http).get(`/api/files/${f.ThingUUID}?admin=true`).set(adminToken.headers).expect(404);
      const listed = (await request(t.http).get('/api/files?admin=true').set(adminToken.headers).expect(200)).body as Array<{ UID: number; Global: boolean }>;
      expect(listed.every((x) => x.UID === 1 || x.Global)).toBe(true);
    });
  });
});
