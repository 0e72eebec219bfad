import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, Headers } from '../setup/auth';

describe('info endpoints', () => {
  let t: TestApp;
  let user: Headers;

  beforeAll(async () => {
    t = await createTestApp();
    user = (await createUser(t.http, await asAdmin(t.http))).headers;
  });
  afterAll(() => t.close());

  it('describes every capability with its number, name and category', async () => {
    const res = await request(t.http).get('/api/info/capabilities').set(user).expect(200);
    expect(res.body[0]).toEqual({ Cap: 0, Name: 'Search', Desc: expect.any(String), Category: 'Search', Grants: true });
    // Numbers are the product's (product-notes §1.3): 5 is unused, KitWrite is 27, LogbotAI 51.
    const cap = (name: string) => res.body.find((c: { Name: string }) => c.Name === name);
    expect([cap('SetSearchGroup').Cap, cap('ResourceRead').Cap, cap('KitWrite').Cap, cap('Ingest').Cap, cap('LogbotAI').Cap]).toEqual([6, 12, 27, 38, 51]);
    expect(cap('KitWrite').Grants).toBe(false);
    const names = res.body.map((c: { Name: string }) => c.Name);
    expect(names).toEqual(expect.arrayContaining(['DashboardRead', 'DashboardWrite', 'TokenWrite', 'PreferencesRead', 'UserWrite']));
    expect(new Set(res.body.map((c: { Cap: number }) => c.Cap)).size).toBe(res.body.length);
  });

  it('reports the limits a client must respect', async () => {
    const res = await request(t.http).get('/api/settings').set(user).expect(200);
    expect(res.body).toMatchObject({
      MaxFileSize: t.config.maxFileSize,
      MaxResourceSize: t.config.maxResourceSize,
      MaxJsonRequestSize: t.config.maxJsonBody,
      MaxSearchesPerUser: t.config.maxSearchesPerUser,
      ServerTime: expect.any(String),
      ServerTimezoneOffset: expect.any(Number),
    });
    await request(t.http).get('/api/settings').expect(401);
  });

  it('answers requests the HTTP parser refuses with a JSON Error body', async () => {
    const res = await request(t.http).get('/api/test').set('X-Big', 'a'.repeat(20_000));
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text)).toEqual({ Error: 'Request headers are too large', Code: 'HEADERS_TOO_LARGE' });
  });

  it('serves the OpenAPI document and its UI without authentication', async () => {
    const doc = await request(t.http).get('/api/openapi.json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/login', '/api/users/{id}', '/api/info/whoami']));
    await request(t.http)
      .get('/api/docs')
      .expect((r) => expect([200, 301]).toContain(r.status));
  });
});
