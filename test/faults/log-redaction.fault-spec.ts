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
});
