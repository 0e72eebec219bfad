import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers, TestUser } from '../setup/auth';

const RANGE = { SearchStart: '2024-06-01T00:00:00Z', SearchEnd: '2024-06-02T00:00:00Z' };
const MiB = 1024 * 1024;

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
    t = await createTestApp({ savedSearchQuotaBytes: 1 * MiB });
    admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    // About 0.6 MiB of stored results.
    const entries = Array.from({ length: 2500 }, (_, i) => ({
      TS: new Date(Date.parse('2024-06-01T01:00:00Z') + i * 1000).toISOString(),
      Tag: 'quota',
      Data: Buffer.from(`${i} ${'x'.repeat(150)}`).toString('base64'),
    }));
    await request(t.http).put('/api/ingest/json').set(admin).send(entries).expect(200);
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
    expect(second.body.Error).toMatch(/your saved searches use \d+ of 1048576 bytes \(SAVED_SEARCH_QUOTA_BYTES\)/);
    const save = await request(t.http).patch(`/api/searchctrl/${id}/save`).set(alice.headers).expect(413);
    expect(save.body.Error).toMatch(/Saved searches quota exceeded/);
    // Another user has a quota of their own.
    await request(t.http).post('/api/searchctrl/import').set(admin).attach('file', archive, 'a.tar.gz').expect(200);
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
