import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';
import { availabilityErrors } from '../setup/errors';

const RANGE = { SearchStart: '2024-06-01T00:00:00Z', SearchEnd: '2024-06-02T00:00:00Z' };
const MiB = 1024 * 1024;

/** An app with a 1 MiB saved-search quota, its admin, a user, and about 0.6 MiB of results to store (tag `quota`). */
async function quotaApp(): Promise<{ t: TestApp; admin: Headers; alice: TestUser }> {
  const t = await createTestApp({ savedSearchQuotaBytes: 1 * MiB });
  const admin = await asAdmin(t.http);
  const alice = await createUser(t.http, admin);
  const entries = Array.from({ length: 2500 }, (_, i) => ({
    TS: new Date(Date.parse('2024-06-01T01:00:00Z') + i * 1000).toISOString(),
    Tag: 'quota',
    Data: Buffer.from(`${i} ${'x'.repeat(150)}`).toString('base64'),
  }));
  await request(t.http).put('/api/ingest/json').set(admin).send(entries).expect(200);
  return { t, admin, alice };
}

/** Saved and imported searches take disk (and, when read, memory): each user has a quota. */
describe('saved searches quota (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;

  const finished = async (h: Headers, id: string) => {
    for (let i = 0; i < 300; i++) {
      const r = await request(t.http).get(`/api/searchctrl/${id}/stats`).set(h).expect(200);
      if (r.body.Finished) return;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('search did not finish');
  };
  const archiveOf = async (h: Headers, id: string): Promise<Buffer> =>
    (
      await request(t.http)
        .get(`/api/searchctrl/${id}/download/archive`)
        .set(h)
        .buffer(true)
        .parse((res, cb) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => cb(null, Buffer.concat(parts)));
        })
        .expect(200)
    ).body as Buffer;

  beforeAll(async () => {
    ({ t, admin, alice } = await quotaApp());
  });
  afterAll(() => t.close());

  it('refuses an import or a save that would take a user past SAVED_SEARCH_QUOTA_BYTES with 413; others are unaffected', async () => {
    const launched = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(alice.headers)
      .send({ SearchString: 'tag=quota', ...RANGE })
      .expect(200);
    const id = launched.body.SearchID as string;
    await finished(alice.headers, id);
    const archive = await archiveOf(alice.headers, id);
    await request(t.http).post('/api/searchctrl/import').set(alice.headers).attach('file', archive, 'a.tar.gz').expect(200);
    const second = await request(t.http).post('/api/searchctrl/import').set(alice.headers).attach('file', archive, 'a.tar.gz').expect(413);
    expect(second.body.Error).toMatch(/your searches store [\d.]+ KiB of SAVED_SEARCH_QUOTA_BYTES \(1 MiB\) saved/);
    const save = await request(t.http).patch(`/api/searchctrl/${id}/save`).set(alice.headers).expect(413);
    expect(save.body.Error).toMatch(/Saved searches quota exceeded/);
    // Another user has a quota of their own.
    await request(t.http).post('/api/searchctrl/import').set(admin).attach('file', archive, 'a.tar.gz').expect(200);
  });
});

/** Quotas that could be walked around (issue 32, item 7): bytes are counted as they are written. */
describe('storage quotas counted as results are written (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  const tag = `qgrow${process.pid}`;
  /** Every stored byte of a user's searches: what the quotas bound. */
  const stored = async (h: Headers, which: (s: { State: string }) => boolean = () => true) => {
    const list = (await request(t.http).get('/api/searchctrl/details').set(h).expect(200)).body as Array<{ StoreSize: number; IndexSize: number; State: string }>;
    return list.filter(which).reduce((n, s) => n + s.StoreSize + s.IndexSize, 0);
  };
  const settled = async (h: Headers) => {
    for (let i = 0; i < 600; i++) {
      const list = (await request(t.http).get('/api/searchctrl/details').set(h).expect(200)).body as Array<{ State: string; Finished: string }>;
      if (list.every((s) => !s.State.includes('SAVING') && !s.Finished.startsWith('0001'))) return list;
      await new Promise((res) => setTimeout(res, 50));
    }
    throw new Error('searches did not settle');
  };
  const launch = (h: Headers) =>
    request(t.http)
      .post('/api/searchctrl/launch')
      .set(h)
      .send({ SearchString: `tag=${tag}`, ...RANGE, Background: true })
      .expect(200)
      .then((r) => r.body.SearchID as string);

  beforeAll(async () => {
    t = await createTestApp({ savedSearchQuotaBytes: 1 * MiB, searchStoreQuotaBytes: 3 * MiB, maxSavedSearchesPerUser: 3 } as Record<string, unknown>);
    admin = await asAdmin(t.http);
    // About 10 MB of stored results for one search of this tag.
    for (let b = 0; b < 4; b++) {
      const entries = Array.from({ length: 5000 }, (_, i) => ({
        TS: new Date(Date.parse('2024-06-01T02:00:00Z') + (b * 5000 + i) * 100).toISOString(),
        Tag: tag,
        Data: Buffer.from(`${b}.${i} ${'y'.repeat(300)}`).toString('base64'),
      }));
      await request(t.http).put('/api/ingest/json').set(admin).send(entries).expect(200);
    }
  });
  afterAll(() => t.close());

  it('a search saved while it runs stops storing at SAVED_SEARCH_QUOTA_BYTES (OverLimit); three of them store at most the quota', async () => {
    const user = await createUser(t.http, admin);
    const ids = await Promise.all([0, 1, 2].map(() => launch(user.headers)));
    // Saved at once, while they run: each save passes (nothing stored yet), or is refused once the quota is spent.
    const saves = await Promise.all(ids.map((id) => request(t.http).patch(`/api/searchctrl/${id}/save`).set(user.headers)));
    expect(saves.every((r) => r.status === 200 || r.status === 413)).toBe(true);
    const list = await settled(user.headers);
    expect(await stored(user.headers, (s) => s.State.includes('SAVED'))).toBeLessThanOrEqual(1 * MiB);
    expect((list as unknown as Array<{ OverLimit?: boolean }>).length).toBe(3);
    const info = await Promise.all(ids.map(async (id) => (await request(t.http).get(`/api/searchctrl/${id}/stats`).set(user.headers).expect(200)).body));
    expect(info.some((s: { OverLimit?: boolean }) => s.OverLimit === true)).toBe(true);
  });

  it("unsaved searches stop storing at SEARCH_STORE_QUOTA_BYTES, all of a user's searches together", async () => {
    const user = await createUser(t.http, admin);
    await Promise.all([0, 1, 2, 3].map(() => launch(user.headers)));
    await settled(user.headers);
    expect(await stored(user.headers)).toBeLessThanOrEqual(3 * MiB);
    expect(await stored(user.headers)).toBeGreaterThan(2 * MiB);
  });

  it('saved searches are capped in number (MAX_SAVED_SEARCHES_PER_USER, 409); deleting one makes room', async () => {
    const user = await createUser(t.http, admin);
    const small = async () => {
      const r = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(user.headers)
        .send({ SearchString: `tag=${tag} count`, ...RANGE, Background: true })
        .expect(200);
      return r.body.SearchID as string;
    };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await small());
      await request(t.http).patch(`/api/searchctrl/${ids[i]}/save`).set(user.headers).expect(200);
    }
    const fourth = await small();
    const refused = await request(t.http).patch(`/api/searchctrl/${fourth}/save`).set(user.headers);
    expect([refused.status, refused.body.Error]).toEqual([409, availabilityErrors.savedSearchesCap(3)]);
    await settled(user.headers);
    await request(t.http).delete(`/api/searchctrl/${ids[0]}`).set(user.headers).expect(200);
    await request(t.http).patch(`/api/searchctrl/${fourth}/save`).set(user.headers).expect(200);
  });
});

describe('a cut result stays cut once saved (e2e)', () => {
  it('keeps OverLimit and LimitDroppedRange through the move to the saved area and a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'saved-overlimit-'));
    let t = await createTestApp({ dataDir, renderStoreLimitBytes: 1 * MiB });
    try {
      let admin = await asAdmin(t.http);
      const tag = `cut${process.pid}`;
      const entries = Array.from({ length: 5000 }, (_, i) => ({
        TS: new Date(Date.parse('2024-06-01T03:00:00Z') + i * 100).toISOString(),
        Tag: tag,
        Data: Buffer.from(`${i} ${'c'.repeat(300)}`).toString('base64'),
      }));
      await request(t.http).put('/api/ingest/json').set(admin).send(entries).expect(200);
      const l = await request(t.http)
        .post('/api/searchctrl/launch')
        .set(admin)
        .send({ SearchString: `tag=${tag}`, ...RANGE, Background: true })
        .expect(200);
      const id = l.body.SearchID as string;
      const stats = async () => (await request(t.http).get(`/api/searchctrl/${id}/stats`).set(admin).expect(200)).body;
      for (let i = 0; i < 300 && !(await stats()).Finished; i++) await new Promise((res) => setTimeout(res, 50));
      const cut = await stats();
      expect(cut.OverLimit).toBe(true);
      await request(t.http).patch(`/api/searchctrl/${id}/save`).set(admin).expect(200);
      await request(t.http).put(`/api/searchctrl/${id}/detach?sid=${l.body.SearchSessionID}`).set(admin).expect(200);
      for (let i = 0; i < 300; i++) {
        const info = (await request(t.http).get(`/api/searchctrl/${id}/details`).set(admin).expect(200)).body;
        if (info.State === 'DORMANT/SAVED') break;
        await new Promise((res) => setTimeout(res, 50));
      }
      expect(await stats()).toEqual(expect.objectContaining({ OverLimit: true, LimitDroppedRange: cut.LimitDroppedRange }));
      await t.close();
      t = await createTestApp({ dataDir, renderStoreLimitBytes: 1 * MiB }, t.databaseUrl);
      admin = await asAdmin(t.http);
      expect((await stats()).OverLimit).toBe(true);
    } finally {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('concurrent archive imports reserve before they write (e2e)', () => {
  let t: TestApp;
  let admin: Headers;
  let alice: TestUser;

  beforeAll(async () => {
    ({ t, admin, alice } = await quotaApp());
  });
  afterAll(() => t.close());

  it('six imports at once of a 0.6 MiB archive with a 1 MiB quota: one is stored, the others are refused', async () => {
    const l = await request(t.http)
      .post('/api/searchctrl/launch')
      .set(admin)
      .send({ SearchString: 'tag=quota', ...RANGE, Background: true })
      .expect(200);
    const id = l.body.SearchID as string;
    for (let i = 0; i < 300 && !(await request(t.http).get(`/api/searchctrl/${id}/stats`).set(admin).expect(200)).body.Finished; i++) {
      await new Promise((res) => setTimeout(res, 50));
    }
    const archive = (
      await request(t.http)
        .get(`/api/searchctrl/${id}/download/archive`)
        .set(admin)
        .buffer(true)
        .parse((res, cb) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => cb(null, Buffer.concat(parts)));
        })
        .expect(200)
    ).body as Buffer;
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(() => request(t.http).post('/api/searchctrl/import').set(alice.headers).attach('file', archive, 'a.tar.gz')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 413, 413, 413, 413, 413]);
    for (const r of results.filter((x) => x.status === 413)) expect(r.body.Error).toMatch(/SAVED_SEARCH_QUOTA_BYTES/);
    const list = (await request(t.http).get('/api/searchctrl/details').set(alice.headers).expect(200)).body as Array<{ StoreSize: number; IndexSize: number }>;
    expect(list).toHaveLength(1);
    expect(list[0].StoreSize + list[0].IndexSize).toBeLessThanOrEqual(1 * MiB);
  });
});

/** One user looping imports (a gzip bomb each time) would hold the HTTP thread: a budget per user. */
describe('archive imports per minute (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const junk = (h: Headers) => request(t.http).post('/api/searchctrl/import').set(h).attach('file', Buffer.from('not an archive'), 'junk.tar.gz');

  beforeAll(async () => {
    t = await createTestApp({ importMaxPerMinute: 3 });
    const admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
  });
  afterAll(() => t.close());

  it('refuses the imports past IMPORT_MAX_PER_MINUTE with 429 and Retry-After, for that user only', async () => {
    // Failed imports count too: the work was done.
    for (let i = 0; i < 3; i++) expect((await junk(alice.headers)).status).toBe(400);
    const refused = await junk(alice.headers);
    expect({ status: refused.status, error: refused.body.Error }).toEqual({
      status: 429,
      error: expect.stringContaining('At most 3 archive imports a minute (IMPORT_MAX_PER_MINUTE)'),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await junk(bob.headers)).status).toBe(400);
  });
});
