import { Client } from 'pg';
import { createTestDatabase } from '../setup/db';
import { b64, Headers, ServiceProcess, sleep } from './service';

const RANGE = { SearchStart: '2024-03-01T00:00:00Z', SearchEnd: '2024-03-05T00:00:00Z' };
const TAGS = ['pa', 'pb', 'pc'];

/** A seeded PRNG: a failure names its seed and can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * Property: whatever batches arrive (sizes, tags, days, order), whatever compactions run, and
 * however the service stops (SIGKILL, SIGTERM) and starts again, a search finds exactly the
 * entries that were acknowledged, once each. Entries of a batch whose answer was lost in a kill
 * may be stored or not, but whole and at most once.
 */
describe('blocks under batches, compactions and restarts (fault)', () => {
  const seed = Number(process.env.BLOCKS_FAULT_SEED ?? Date.now() % 100_000);
  let svc: ServiceProcess;
  let admin: Headers;
  let db: Client;

  beforeAll(async () => {
    const url = await createTestDatabase();
    db = new Client({ connectionString: url });
    await db.connect();
    // Compaction every 50 ms: kills land in the middle of merges too.
    svc = new ServiceProcess(url, { COMPACTION_INTERVAL_MS: '50' });
    await svc.start();
    admin = await svc.asAdmin();
  });
  afterAll(async () => {
    await db?.end();
    if (svc) await svc.dispose();
  });

  it(`gives exactly the acknowledged entries, once each (seed ${seed})`, async () => {
    const r = rng(seed);
    const acked = new Set<string>();
    /** batches whose answer was lost: all or none of each may be stored */
    const unknown: string[][] = [];
    let batches = 0;
    for (let round = 0; round < 6; round++) {
      let stop = false;
      /** set just before the signal: a request failing from then on was cut by the stop */
      let stopping = false;
      const lane = async (l: number) => {
        for (let n = 0; !stop; n++) {
          // Mostly tiny batches (HEC-like: small blocks to compact), sometimes larger ones.
          const size = r() < 0.7 ? 1 + Math.floor(r() * 3) : 5 + Math.floor(r() * 60);
          const tag = TAGS[Math.floor(r() * TAGS.length)];
          const ids = Array.from({ length: size }, (_, i) => `p-${round}-${l}-${n}-${i}`);
          const body = ids.map((id) => ({
            TS: new Date(Date.UTC(2024, 2, 1) + Math.floor(r() * 3 * 86_400_000)).toISOString(),
            Tag: tag,
            Data: b64(`${id} ${'x'.repeat(Math.floor(r() * 200))}`),
          }));
          try {
            const res = await svc.request('PUT', '/api/ingest/json', { headers: admin, json: body, timeoutMs: 20_000 });
            if (res.status !== 200) throw new Error(`ingest answered ${res.status} ${res.text}`);
            for (const id of ids) acked.add(id);
            batches++;
          } catch (err) {
            if (!stopping) throw err;
            unknown.push(ids); // the process went away with this batch in flight
            return;
          }
        }
      };
      const lanes = [0, 1, 2].map(lane);
      await sleep(400 + Math.floor(r() * 1200));
      const how = round % 3 === 2 ? 'SIGTERM' : 'SIGKILL';
      stopping = true;
      await svc.kill(how);
      stop = true;
      await Promise.all(lanes);
      await svc.start();
    }
    // Let the compaction catch up, then read everything back.
    await sleep(1500);
    const res = await svc.request('POST', '/api/search/direct', { headers: admin, json: { SearchString: 'tag=pa,pb,pc', Format: 'json', ...RANGE }, timeoutMs: 60_000 });
    expect(res.status).toBe(200);
    const found = (res.body as Array<{ Data: string }>).map((e) => Buffer.from(e.Data, 'base64').toString().split(' ')[0]);
    const counts = new Map<string, number>();
    for (const id of found) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, k]) => k > 1)).toEqual([]);
    expect([...acked].filter((id) => !counts.has(id))).toEqual([]);
    const maybe = new Set(unknown.flat());
    expect(found.filter((id) => !acked.has(id) && !maybe.has(id))).toEqual([]);
    // A lost answer's batch is stored whole or not at all.
    for (const ids of unknown) expect([0, ids.length]).toContain(ids.filter((id) => counts.has(id)).length);
    // The compaction ran: far fewer blocks than batches.
    const blocks = Number((await db.query('SELECT count(*) AS n FROM block')).rows[0].n);
    expect(acked.size).toBeGreaterThan(200);
    expect(blocks).toBeLessThan(batches / 2);
  });
});
