import { createTestDatabase } from '../setup/db';
import { ServiceProcess } from './service';

/** The real service's access and error logs never record a credential, wherever the client put it. */
describe('credentials in logs (real process, LOG_LEVEL=info)', () => {
  let svc: ServiceProcess;

  beforeAll(async () => {
    svc = new ServiceProcess(await createTestDatabase(), { LOG_LEVEL: 'info' });
    await svc.start();
  });
  afterAll(async () => {
    if (svc) await svc.dispose();
  });

  it('keeps HEC ?token=, Service-Token, Authorization and cookies out of every log line', async () => {
    const admin = await svc.asAdmin();
    const made = await svc.request('POST', '/api/tokens', { headers: admin, json: { name: 'log-test', capabilities: ['Ingest'] } });
    expect(made.status).toBe(200);
    const secret = (made.body as { token: string }).token;
    const ok = await svc.request('POST', `/services/collector/event?token=${secret}&channel=0f6d9a6c-0c5e-4e7e-9d47-2b5f3f0c9a11`, { json: { event: 'hello' } });
    expect(ok.status).toBe(200);
    const bad = `sst_${'A'.repeat(48)}`;
    await svc.request('POST', `/services/collector/event?token=${bad}`, { json: { event: 'x' } });
    await svc.request('GET', `/api/info/whoami?token=${bad}`, { headers: { 'Service-Token': secret, Cookie: `token=${bad}` } });
    await new Promise((r) => setTimeout(r, 300));
    expect(svc.output).toContain('/services/collector/event');
    const jwt = admin.Authorization.slice('Bearer '.length);
    for (const credential of [secret, bad, jwt]) expect(svc.output).not.toContain(credential);
  });

  it('writes one access line per request: its id (a valid X-Request-Id, else a UUID), method, path without the query, status and time', async () => {
    const admin = await svc.asAdmin();
    const mark = `trace-${Date.now()}`;
    expect((await svc.request('GET', '/api/info/whoami?token=query-secret', { headers: { ...admin, 'X-Request-Id': mark } })).status).toBe(200);
    const missing = `/api/no-such-${Date.now()}`;
    expect((await svc.request('GET', missing, { headers: { 'X-Request-Id': 'not a valid id!' } })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    const lines = svc.output
      .split('\n')
      .filter((l) => l.includes(mark) || l.includes(missing))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = (id: unknown, url: string, status: number) => ({
      level: 30,
      req: { id, method: 'GET', url },
      res: { statusCode: status },
      responseTime: expect.any(Number),
      msg: `GET ${url} ${status}`,
    });
    expect(lines).toEqual([
      expect.objectContaining(line(mark, '/api/info/whoami', 200)),
      expect.objectContaining(line(expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/), missing, 404)),
    ]);
    expect(svc.output).not.toContain('query-secret');
  });
});
