import * as fs from 'node:fs';
import * as path from 'node:path';
import { b64, Headers, ServiceProcess, sleep } from './service';

const RANGE = { SearchStart: '2020-01-01T00:00:00Z', SearchEnd: '2030-01-01T00:00:00Z' };

/**
 * SIGTERM of the real service, on its own embedded PostgreSQL, while a shipper-like client sends
 * batches: the service drains and exits 0, every request it answered was answered with success,
 * and after a restart every acknowledged entry is stored exactly once.
 */
describe('SIGTERM of the service during ingest (fault)', () => {
  let svc: ServiceProcess;
  let admin: Headers;

  beforeAll(async () => {
    svc = new ServiceProcess('', { SHUTDOWN_DRAIN_MS: '20000' });
    await svc.start();
    admin = await svc.asAdmin();
  });
  afterAll(async () => {
    if (!svc) return;
    await svc.kill('SIGTERM');
    await svc.dispose();
  });

  it('answers every batch it took, exits 0, and stores each acknowledged entry once', async () => {
    const acked: string[] = [];
    const answeredBadly: string[] = [];
    let batchNo = 0;
    let stop = false;
    const lane = async (n: number) => {
      while (!stop) {
        const b = ++batchNo;
        const ids = Array.from({ length: 500 }, (_, i) => `term-${n}-${b}-${i}`);
        const body = ids.map((id, i) => ({ TS: new Date(Date.UTC(2024, 0, 1, 0, 0, 0, (b * 500 + i) % 1000)).toISOString(), Tag: 'shutdown', Data: b64(id) }));
        try {
          const res = await svc.request('PUT', '/api/ingest/json', { headers: admin, json: body });
          if (res.status === 200) acked.push(...ids);
          else answeredBadly.push(`${res.status} ${res.text}`);
        } catch {
          return; // connection refused or closed after the listener closed: never acknowledged
        }
      }
    };
    const lanes = [1, 2, 3, 4].map(lane);
    await sleep(1500);
    const code = await svc.kill('SIGTERM');
    stop = true;
    await Promise.all(lanes);

    expect({ code, output: code === 0 ? '' : svc.output }).toEqual({ code: 0, output: '' });
    expect(svc.output).not.toMatch(/unhandled|57P01|Unhandled 'error' event/);
    expect(answeredBadly).toEqual([]);
    expect(acked.length).toBeGreaterThan(0);
    // PostgreSQL stopped with the service: no postmaster left behind.
    expect(fs.existsSync(path.join(fs.realpathSync(path.join(svc.dataDir, 'pg')), 'postmaster.pid'))).toBe(false);

    await svc.start();
    admin = await svc.asAdmin();
    const res = await svc.request('POST', '/api/search/direct', { headers: admin, json: { SearchString: 'tag=shutdown', Format: 'json', ...RANGE }, timeoutMs: 60000 });
    expect(res.status).toBe(200);
    const counts = new Map<string, number>();
    for (const e of res.body as { Data: string }[]) {
      const id = Buffer.from(e.Data, 'base64').toString();
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect([...counts].filter(([, c]) => c > 1)).toEqual([]);
    expect(acked.filter((id) => !counts.has(id))).toEqual([]);
  });
});
