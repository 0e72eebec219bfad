import { Client } from 'pg';
import { createTestDatabase } from '../setup/db';
import { b64, Headers, ServiceProcess } from './service';

/**
 * Scheduled searches run each slot exactly once (README "Scheduled searches"): two instances of
 * the service on one database queue and run every due slot once, and a SIGKILL during a run
 * leaves that slot to be run again (by the queue, after the run's lease) once the service is
 * back, never lost and never finished twice.
 */
const ENV = {
  SCHEDULER_TICK_MS: '200',
  SEARCH_TIMEOUT_MS: '3000',
  SCHEDULE_RUN_LEASE_SECONDS: '8',
  SCHEDULE_RECOVERY_SECONDS: '1',
  COMPACTION_INTERVAL_MS: '0',
};

interface Run {
  Slot: string;
  State: string;
  Attempt: number;
  SearchID: string | null;
  Error: string;
}

describe('scheduled searches run each slot once (fault)', () => {
  let url: string;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let admin: Headers;
  let db: Client;

  beforeAll(async () => {
    url = await createTestDatabase();
    a = new ServiceProcess(url, ENV);
    b = new ServiceProcess(url, ENV);
    await a.start();
    await b.start();
    admin = await a.asAdmin();
    db = new Client({ connectionString: url });
    await db.connect();
    const now = Date.now();
    const ingest = await a.request('PUT', '/api/ingest/json', {
      headers: admin,
      json: Array.from({ length: 50 }, (_, i) => ({ TS: new Date(now - 600_000 + i * 1000).toISOString(), Tag: 'oncefault', Data: b64(`entry ${i}`) })),
    });
    expect(ingest.status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await db?.end();
    for (const s of [a, b]) {
      if (s && !s.alive && s.child?.signalCode !== 'SIGKILL') process.stderr.write(`service output:\n${s.output}\n`);
      await s?.dispose();
    }
  });

  const runs = async (svc: ServiceProcess, id: number): Promise<Run[]> => {
    const r = await svc.request('GET', `/api/scheduledsearches/${id}/runs?limit=500`, { headers: admin });
    expect(r.status).toBe(200);
    return r.body as Run[];
  };
  /** Polls a condition (the scheduler works on its own time), failing with what it last saw. */
  async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 150_000): Promise<T> {
    const deadline = Date.now() + ms;
    let last: T;
    do {
      last = await probe();
      if (ok(last)) return last;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    throw new Error(`${what}: never happened; last ${JSON.stringify(last)}`);
  }

  it('two instances on one database: every due slot of every schedule runs once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await (i % 2 ? b : a).request('POST', '/api/scheduledsearches', {
        headers: admin,
        json: { Name: `every minute ${i}`, Schedule: '* * * * *', SearchString: 'tag=oncefault count', Duration: -3600 },
      });
      expect(r.status).toBe(200);
      ids.push(r.body as number);
    }
    // Two slots of each (the next two minute boundaries), every run finished.
    const seen = await Promise.all(
      ids.map((id) =>
        until(
          `two slots of ${id}`,
          () => runs(a, id),
          (rs) => rs.filter((x) => x.State === 'done').length >= 2,
        ),
      ),
    );
    for (const rs of seen) {
      const slots = rs.map((x) => x.Slot);
      expect(new Set(slots).size).toBe(slots.length);
      for (const x of rs.filter((r) => r.State === 'done')) expect(x).toMatchObject({ Attempt: 1, Error: '' });
      // No slot skipped between the first and the last.
      const times = slots.map((s) => Date.parse(s)).sort((p, q) => p - q);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(60_000);
    }
    // One saved search per run, over both instances: no slot was searched twice.
    const saved = new Set<string>();
    for (const svc of [a, b]) {
      const r = await svc.request('GET', '/api/searchctrl?admin=true', { headers: await svc.asAdmin() });
      for (const s of r.body as Array<{ ID: string }>) saved.add(s.ID);
    }
    const resultIds = seen.flat().flatMap((x) => (x.SearchID ? [x.SearchID] : []));
    for (const id of resultIds) expect(saved.has(id)).toBe(true);
    const retried = await db.query(`SELECT count(*)::int AS n FROM scheduled_search_run WHERE schedule_id = ANY($1::bigint[]) AND attempt > 1`, [ids]);
    expect(retried.rows[0].n).toBe(0);
    for (const id of ids) expect((await a.request('DELETE', `/api/scheduledsearches/${id}`, { headers: admin })).status).toBe(200);
  }, 300_000);

  it('a SIGKILL during a run: after the restart that slot runs (again) and finishes once', async () => {
    await b.kill('SIGKILL');
    const r = await a.request('POST', '/api/scheduledsearches', {
      headers: admin,
      json: { Name: 'killed mid-run', Schedule: '0 0 1 1 *', SearchString: 'tag=oncefault count', Duration: -3600 },
    });
    expect(r.status).toBe(200);
    const id = r.body as number;
    // Hold the entries' table: the run's search waits on it, so the kill lands during the run.
    const lock = new Client({ connectionString: url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE block IN ACCESS EXCLUSIVE MODE');
    try {
      expect((await a.request('PUT', `/api/scheduledsearches/${id}`, { headers: admin, json: { OneShot: true } })).status).toBe(200);
      const [running] = await until(
        'the run in progress',
        () => runs(a, id),
        (rs) => rs.length === 1 && rs[0].State === 'running',
      );
      await until(
        'the search waiting on the table',
        async () => (await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rows[0].n as number,
        (n) => n > 0,
      );
      await a.kill('SIGKILL');
      expect(running.Attempt).toBe(1);
    } finally {
      await lock.query('ROLLBACK');
      await lock.end();
    }
    await a.start();
    admin = await a.asAdmin();
    const done = await until(
      'the slot run again',
      () => runs(a, id),
      (rs) => rs.length === 1 && rs[0].State === 'done',
    );
    expect(done[0]).toMatchObject({ State: 'done', Attempt: 2, Error: '' });
    expect(done[0].SearchID).not.toBeNull();
    const csv = await a.request('GET', `/api/searchctrl/${done[0].SearchID}/download/csv`, { headers: admin });
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split(/\r?\n/).pop()!.split(',').pop()).toBe('50');
    // Finished once: the schedule points at that run's results.
    const s = await a.request('GET', `/api/scheduledsearches/${id}`, { headers: admin });
    expect(s.body).toMatchObject({ LastSearchIDs: [done[0].SearchID], LastError: '' });
  }, 300_000);
});
