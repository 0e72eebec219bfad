import { createTestDatabase } from '../setup/db';
import { errorBody } from '../setup/errors';
import { Headers, ServiceProcess } from './service';

/** What users create survives a SIGKILL; what they revoked stays revoked. */
describe('state across a SIGKILL and restart (fault)', () => {
  let svc: ServiceProcess;

  beforeAll(async () => {
    svc = new ServiceProcess(await createTestDatabase());
    await svc.start();
  });
  afterAll(async () => {
    if (svc) await svc.dispose();
  });

  it('keeps users, tokens, dashboards and saved searches; revoked sessions and tokens stay revoked', async () => {
    const admin = await svc.asAdmin();
    const ok = async (method: string, url: string, headers: Headers, json?: unknown) => {
      const res = await svc.request(method, url, { headers, json });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
      return res.body as Record<string, unknown>;
    };
    const uid = (await ok('POST', '/api/users', admin, {
      User: 'survivor',
      Pass: 'survivor-password',
      Name: 'Sur Vivor',
      Email: 's@example.com',
      Admin: false,
    })) as unknown as number;
    const user = await svc.login('survivor', 'survivor-password');
    const doomedSession = await svc.login('survivor', 'survivor-password');
    const kept = await ok('POST', '/api/tokens', user, { name: 'kept', description: 'k', capabilities: ['DashboardRead'] });
    const revoked = await ok('POST', '/api/tokens', user, { name: 'revoked', description: 'r', capabilities: ['DashboardRead'] });
    const dash = await ok('POST', '/api/dashboards', user, { Name: 'survives', Description: 'd', Data: { widgets: [1, 2, 3] } });
    const saved = await ok('POST', '/api/library', user, { Name: 'saved', Query: 'tag=x grep y', Description: 'q' });

    expect((await svc.request('PUT', '/api/logout', { headers: doomedSession })).status).toBe(200);
    expect((await svc.request('DELETE', `/api/tokens/${revoked.id}`, { headers: user })).status).toBe(204);
    const tokenHeaders = (t: Record<string, unknown>) => ({ 'Service-Token': t.token as string });
    expect((await svc.request('GET', '/api/dashboards', { headers: doomedSession })).status).toBe(401);
    expect((await svc.request('GET', '/api/dashboards', { headers: tokenHeaders(revoked) })).status).toBe(401);

    const snapshot = async () => ({
      user: await ok('GET', `/api/users/${uid}`, admin),
      tokens: await ok('GET', '/api/tokens', user),
      dashboard: await ok('GET', `/api/dashboards/${typeof dash === 'object' ? dash.ID : dash}`, user),
      library: await ok('GET', `/api/library/${typeof saved === 'object' ? (saved.ThingUUID ?? saved.GUID) : saved}`, user),
    });
    const before = await snapshot();

    await svc.kill('SIGKILL');
    await svc.start();

    // The JWTs issued before the kill still work (sessions are in the database, the key is fixed).
    const after = await snapshot();
    expect(after).toEqual(before);
    expect((await svc.request('GET', '/api/dashboards', { headers: tokenHeaders(kept) })).status).toBe(200);
    expect(await svc.login('survivor', 'survivor-password')).toEqual({ Authorization: expect.any(String) });
    // Revoked before the kill: still refused.
    const s = await svc.request('GET', '/api/dashboards', { headers: doomedSession });
    expect([s.status, s.body]).toEqual([401, errorBody('Session has ended; log in again', 'SESSION_ENDED')]);
    const t = await svc.request('GET', '/api/dashboards', { headers: tokenHeaders(revoked) });
    expect([t.status, t.body]).toEqual([401, errorBody('API token has been revoked', 'API_TOKEN_REVOKED')]);
  });
});
