import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { errorBody } from '../setup/errors';
import { ChildPostgres, startChildPostgres } from './embedded-pg';
import { b64, Headers, HttpResult, ServiceProcess, sleep } from './service';

/**
 * PostgreSQL stops under load and comes back. Bound (asserted): while it is down every request
 * answers 503 DATABASE_UNAVAILABLE (ingest and search also INDEXER_UNAVAILABLE: the indexer is the
 * same PostgreSQL) within CONNECT_TIMEOUT_MS + 4 s (a refused connection fails at once; a
 * connection attempt gives up after DB_CONNECT_TIMEOUT_MS). The service stays up and recovers by
 * itself within 20 s of PostgreSQL being back.
 */
const CONNECT_TIMEOUT_MS = 1000;
const BOUND_MS = CONNECT_TIMEOUT_MS + 4000;

describe('PostgreSQL stop and restart under load (fault)', () => {
  let dir: string;
  let pg: ChildPostgres;
  let port: number;
  let svc: ServiceProcess;
  let admin: Headers;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-fault-pg-'));
    pg = await startChildPostgres({ dir });
    port = Number(new URL(pg.url).port);
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    await c.query('CREATE DATABASE fault_svc');
    await c.end();
    const url = new URL(pg.url);
    url.pathname = '/fault_svc';
    svc = new ServiceProcess(url.toString(), { DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS), DB_POOL_SIZE: '5' });
    await svc.start();
    admin = await svc.asAdmin();
  }, 120000);
  afterAll(async () => {
    // A dead service is a defect: show what it printed.
    if (svc && !svc.alive) process.stderr.write(`service output:\n${svc.output}\n`);
    await svc?.dispose();
    await pg?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  let seq = 0;
  /** The requests of one round, in this order. */
  const ROUTES = ['GET /api/dashboards', 'POST /api/dashboards', 'PUT /api/ingest/json', 'POST /api/search/direct', 'GET /api/users/1'];
  const requests = (): Promise<HttpResult>[] => {
    const n = ++seq;
    return [
      svc.request('GET', '/api/dashboards', { headers: admin, timeoutMs: 20000 }),
      svc.request('POST', '/api/dashboards', { headers: admin, json: { Name: `load ${n}`, Description: 'x', Data: {} }, timeoutMs: 20000 }),
      svc.request('PUT', '/api/ingest/json', { headers: admin, json: [{ TS: '2024-01-01T00:00:00Z', Tag: 'pgfault', Data: b64(`e${n}`) }], timeoutMs: 20000 }),
      svc.request('POST', '/api/search/direct', {
        headers: admin,
        json: { SearchString: 'tag=pgfault count', SearchStart: '2020-01-01T00:00:00Z', SearchEnd: '2030-01-01T00:00:00Z', Format: 'json' },
        timeoutMs: 20000,
      }),
      svc.request('GET', '/api/users/1', { headers: admin, timeoutMs: 20000 }),
    ];
  };

  it('answers 503 DATABASE_UNAVAILABLE (or INDEXER_UNAVAILABLE) within the bound while PostgreSQL is down, stays alive, and recovers without a restart', async () => {
    const before = await Promise.all(requests());
    expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    // Load running while PostgreSQL stops: every answer is a success (finished before the stop) or a 503.
    let stop = false;
    const during: HttpResult[] = [];
    const load = (async () => {
      while (!stop) during.push(...(await Promise.all(requests())));
    })();
    await sleep(300);
    await pg.stop();
    const down: HttpResult[] = [];
    for (let i = 0; i < 5; i++) down.push(...(await Promise.all(requests())));
    stop = true;
    await load;

    const bad = during.filter((r) => r.status !== 200 && r.status !== 503).map((r) => `${r.status} ${r.text}`);
    expect(bad).toEqual([]);
    // Every route reads the caller's session first, so most refusals are the database's. A request that got past it
    // before the stop and then reaches the indexer (ingest, search) may instead name the indexer (it is the same
    // PostgreSQL): which one a request meets depends on the moment of the stop, so the test pins the set.
    const dbDown = errorBody('The database is unavailable; try again shortly', 'DATABASE_UNAVAILABLE');
    const indexerDown = errorBody(`Indexer 127.0.0.1:${port}/fault_svc is unavailable`, 'INDEXER_UNAVAILABLE');
    const allowed = [
      ...ROUTES.map((route) => ({ route, body: dbDown })),
      { route: 'PUT /api/ingest/json', body: indexerDown },
      { route: 'POST /api/search/direct', body: indexerDown },
    ];
    const routed = (rs: HttpResult[]) => rs.map((r, i) => ({ route: ROUTES[i % ROUTES.length], r }));
    expect(down.map((r) => r.status)).toEqual(down.map(() => 503));
    for (const { route, r } of [...routed(down), ...routed(during).filter(({ r }) => r.status === 503)]) {
      const { RequestId, ...body } = r.body as Record<string, unknown>;
      expect(RequestId).toEqual(expect.any(String)); // 5xx bodies carry the RequestId of the logged failure
      expect(allowed).toContainEqual({ route, body });
    }
    expect(Math.max(...down.map((r) => r.ms))).toBeLessThan(BOUND_MS);
    expect(svc.alive).toBe(true);
    // Public routes that need no database still answer.
    expect((await svc.request('GET', '/api/test')).status).toBe(200);

    pg = await startChildPostgres({ dir, port });
    const deadline = Date.now() + 20000;
    let after: HttpResult[] = [];
    while (Date.now() < deadline) {
      after = await Promise.all(requests());
      if (after.every((r) => r.status === 200)) break;
      await sleep(250);
    }
    expect(after.map((r) => `${r.status}${r.status === 200 ? '' : ' ' + r.text}`)).toEqual(['200', '200', '200', '200', '200']);
    // Stable, not a lucky request: every one of a few more rounds succeeds.
    for (let i = 0; i < 3; i++) expect((await Promise.all(requests())).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(svc.alive).toBe(true);
  });
});
