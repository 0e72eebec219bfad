import request from 'supertest';
import { freePort } from '../../src/database/embedded-postgres';
import { createTestApp, TestApp } from '../setup/app';
import { createTestDatabase } from '../setup/db';
import { asAdmin, createUser, Headers } from '../setup/auth';

describe('stats', () => {
  let t: TestApp;
  let user: Headers;
  let downName: string;

  beforeAll(async () => {
    const main = await createTestDatabase();
    const port = await freePort();
    const down = `postgres://postgres:x@127.0.0.1:${port}/nothing_here`;
    downName = `127.0.0.1:${port}/nothing_here`;
    t = await createTestApp({ indexerUrls: [main, down] }, main);
    user = (await createUser(t.http, await asAdmin(t.http))).headers;
  });
  afterAll(() => t.close());

  it('pings the web server and every indexer; a stopped indexer is Disconnected and the endpoint still answers', async () => {
    const started = Date.now();
    const res = await request(t.http).get('/api/stats/ping').set(user).expect(200);
    expect(Date.now() - started).toBeLessThan(5000);
    const entries = Object.entries(res.body);
    expect(res.body.webserver).toBe('OK');
    expect(res.body[downName]).toBe('Disconnected');
    expect(entries.filter(([, v]) => v === 'OK')).toHaveLength(2);
  });

  it('describes the host of each component with real values', async () => {
    const res = await request(t.http).get('/api/stats/sysDesc').set(user).expect(200);
    expect(res.body.webserver).toEqual({
      VirtSystem: expect.any(String),
      VirtRole: expect.any(String),
      CPUCount: expect.any(Number),
      CPUModel: expect.any(String),
      CPUMhz: expect.any(String),
      CPUCache: expect.any(String),
      TotalMemoryMB: expect.any(Number),
      SystemVersion: expect.any(String),
    });
    expect(res.body.webserver.CPUCount).toBeGreaterThan(0);
    expect(res.body.webserver.TotalMemoryMB).toBeGreaterThan(100);
    const local = Object.entries(res.body).find(([k]) => k !== 'webserver' && k !== downName)![1] as { SystemVersion: string };
    expect(local.SystemVersion).toMatch(/^PostgreSQL \d+/);
    expect(res.body[downName]).toEqual({ Error: 'indexer is not reachable' });
  });

  it('reports indexer and ingest statistics per indexer', async () => {
    const idx = await request(t.http).get('/api/stats/idxStats').set(user).expect(200);
    expect(Object.keys(idx.body)).toHaveLength(2);
    const igst = await request(t.http).get('/api/stats/igstStats').set(user).expect(200);
    for (const v of Object.values(igst.body)) {
      expect(v).toMatchObject({ TotalCount: expect.any(Number), EntriesMinuteTail: expect.any(Array), EntriesHourTail: expect.any(Array) });
    }
  });

  it('counts small partitions exactly, says which counts are estimates, and counts all on ?exact=true', async () => {
    const admin = await asAdmin(t.http);
    const now = new Date().toISOString();
    // Round robin over two indexers, one down: ingest skips it.
    await request(t.http)
      .put('/api/ingest/json')
      .set(admin)
      .send([1, 2, 3].map((i) => ({ TS: now, Tag: 'statsexact', Data: Buffer.from(`e${i}`).toString('base64') })))
      .expect(200);
    for (const query of ['?exact=true', '']) {
      // Without exact=true the shared result may be up to 1.5 s old.
      if (!query) await new Promise((r) => setTimeout(r, 1600));
      const res = await request(t.http).get(`/api/stats/idxStats${query}`).set(user).expect(200);
      const parts = Object.values(res.body as Record<string, { IndexStats: Array<{ Stats: Array<{ Entries: number; Estimated: boolean }> }> }>).flatMap((ix) =>
        ix.IndexStats.flatMap((s) => s.Stats),
      );
      expect(parts.reduce((a, p) => a + p.Entries, 0)).toBeGreaterThanOrEqual(3);
      expect(parts.every((p) => p.Estimated === false)).toBe(true);
    }
    await request(t.http).get('/api/stats/idxStats?exact=maybe').set(user).expect(400);
  });

  it('needs authentication', async () => {
    await request(t.http).get('/api/stats/ping').expect(401);
  });
});
