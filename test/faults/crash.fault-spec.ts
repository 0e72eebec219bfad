import { createHash, randomBytes } from 'node:crypto';
import { createTestDatabase } from '../setup/db';
import { b64, fileForm, Headers, ServiceProcess, sleep } from './service';

const RANGE = { SearchStart: '2020-01-01T00:00:00Z', SearchEnd: '2030-01-01T00:00:00Z' };
/** A hanging upload is a defect of its own: name it instead of a bare timeout. */
const uploadOrExplain = <T>(p: Promise<T>): Promise<T> =>
  p.catch((e: Error) => {
    throw new Error(`multipart upload got no answer within 10 s (${e.name}): the upload route hangs`);
  });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** SIGKILL of the real service at awkward moments; after a restart on the same database nothing acknowledged is lost. */
describe('SIGKILL of the service (fault)', () => {
  let svc: ServiceProcess;
  let admin: Headers;

  beforeAll(async () => {
    svc = new ServiceProcess(await createTestDatabase());
    await svc.start();
    admin = await svc.asAdmin();
  });
  afterAll(async () => {
    if (svc) await svc.dispose();
  });

  const searchIds = async (h: Headers): Promise<string[]> => {
    const res = await svc.request('POST', '/api/search/direct', { headers: h, json: { SearchString: 'tag=faults', Format: 'json', ...RANGE }, timeoutMs: 60000 });
    expect(res.status).toBe(200);
    return (res.body as { Data: string }[]).map((e) => Buffer.from(e.Data, 'base64').toString());
  };

  it('keeps every acknowledged ingest batch, none twice, when killed mid-stream', async () => {
    const acked: string[] = [];
    const failed: string[] = [];
    let stop = false;
    let batchNo = 0;
    const stream = async (lane: number) => {
      while (!stop) {
        const n = ++batchNo;
        const ids = Array.from({ length: 25 }, (_, i) => `fault-${lane}-${n}-${i}`);
        const body = ids.map((id, i) => ({ TS: new Date(Date.UTC(2024, 0, 1, 0, 0, 0, n * 100 + i)).toISOString(), Tag: 'faults', Data: b64(id) }));
        try {
          const res = await svc.request('PUT', '/api/ingest/json', { headers: admin, json: body });
          if (res.status === 200) {
            expect(res.body).toEqual({ Count: 25, Size: expect.any(Number) });
            acked.push(...ids);
          } else failed.push(`${res.status} ${res.text}`);
        } catch {
          failed.push('connection'); // the kill: this batch is unacknowledged, either outcome is fine
        }
      }
    };
    const lanes = [1, 2, 3].map(stream);
    await sleep(1500 + Math.floor(Math.random() * 1000));
    await svc.kill('SIGKILL');
    stop = true;
    await Promise.all(lanes);
    expect(acked.length).toBeGreaterThan(0);
    // Before the kill, nothing but connection errors.
    expect(failed.filter((f) => f !== 'connection')).toEqual([]);

    await svc.start();
    admin = await svc.asAdmin();
    const found = await searchIds(admin);
    const counts = new Map<string, number>();
    for (const id of found) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, c]) => c > 1)).toEqual([]);
    expect(acked.filter((id) => !counts.has(id))).toEqual([]);
    // A batch is atomic: an unacknowledged batch is there completely or not at all.
    const byBatch = new Map<string, number>();
    for (const id of found) {
      const key = id.split('-').slice(0, 3).join('-');
      byBatch.set(key, (byBatch.get(key) ?? 0) + 1);
    }
    expect([...byBatch].filter(([, c]) => c !== 25)).toEqual([]);
  });

  it('a resource has its complete old or complete new contents after a kill during upload', async () => {
    const created = await svc.request('POST', '/api/resources', { headers: admin, json: { ResourceName: `fault-res-${Date.now()}`, Description: 'fault' } });
    expect(created.status).toBe(200);
    const guid = (created.body as { GUID: string }).GUID;
    const oldBytes = randomBytes(256 * 1024);
    const first = await uploadOrExplain(svc.request('PUT', `/api/resources/${guid}/raw`, { headers: admin, body: fileForm(oldBytes), timeoutMs: 10000 }));
    expect(first.status).toBe(200);
    expect(first.body).toEqual(expect.objectContaining({ Size: oldBytes.length, Hash: sha256(oldBytes) }));

    const newBytes = randomBytes(8 * 1024 * 1024);
    const upload = svc.request('PUT', `/api/resources/${guid}/raw`, { headers: admin, body: fileForm(newBytes) }).catch(() => undefined);
    await sleep(30 + Math.floor(Math.random() * 150));
    await svc.kill('SIGKILL');
    const ack = await upload;
    await svc.start();
    admin = await svc.asAdmin();

    const meta = await svc.request('GET', `/api/resources/${guid}`, { headers: admin });
    expect(meta.status).toBe(200);
    const raw = await fetch(`${svc.base}/api/resources/${guid}/raw`, { headers: admin });
    expect(raw.status).toBe(200);
    const bytes = Buffer.from(await raw.arrayBuffer());
    const m = meta.body as { Size: number; Hash: string };
    expect({ Size: m.Size, Hash: m.Hash }).toEqual({ Size: bytes.length, Hash: sha256(bytes) });
    expect([sha256(oldBytes), sha256(newBytes)]).toContain(sha256(bytes));
    if (ack?.status === 200) expect(sha256(bytes)).toBe(sha256(newBytes)); // acknowledged means stored
  });

  it('a user file has its complete old or complete new contents after a kill during replacement', async () => {
    const oldBytes = randomBytes(128 * 1024);
    const form = fileForm(oldBytes, 'fault.bin');
    form.append('name', 'fault file');
    const created = await uploadOrExplain(svc.request('POST', '/api/files', { headers: admin, body: form, timeoutMs: 10000 }));
    expect(created.status).toBe(200);
    const guid = (created.body as { GUID: string }).GUID;
    expect(created.body).toEqual(expect.objectContaining({ Size: oldBytes.length }));

    const newBytes = randomBytes(3 * 1024 * 1024);
    const upload = svc.request('POST', `/api/files/${guid}`, { headers: admin, body: fileForm(newBytes, 'fault.bin') }).catch(() => undefined);
    await sleep(30 + Math.floor(Math.random() * 150));
    await svc.kill('SIGKILL');
    const ack = await upload;
    await svc.start();
    admin = await svc.asAdmin();

    const details = await svc.request('GET', `/api/files/${guid}/details`, { headers: admin });
    expect(details.status).toBe(200);
    const raw = await fetch(`${svc.base}/api/files/${guid}`, { headers: admin });
    expect(raw.status).toBe(200);
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect((details.body as { Size: number }).Size).toBe(bytes.length);
    expect([sha256(oldBytes), sha256(newBytes)]).toContain(sha256(bytes));
    if (ack?.status === 200) expect(sha256(bytes)).toBe(sha256(newBytes));
  });
});
