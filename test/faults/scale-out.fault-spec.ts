import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '../setup/db';
import { ChildPostgres, startChildPostgres } from './embedded-pg';
import { b64, Headers, ServiceProcess } from './service';

/**
 * Scale-out on separate PostgreSQL servers, not only separate databases: the service's main
 * database and two more embedded PostgreSQL servers as indexers (`INDEXER_URLS`). Ingest spreads
 * over all three, searches merge them, and an indexer that goes down gives the documented
 * answer (searches 503 naming it, ingest goes to the others) until it is back, with nothing
 * acknowledged lost.
 */
const BATCHES = 30;
const PER_BATCH = 10;

describe('scale-out over three PostgreSQL servers (fault)', () => {
  const dirs: string[] = [];
  const servers: ChildPostgres[] = [];
  let mainUrl: string;
  let indexerUrls: string[];
  let svc: ServiceProcess;
  let admin: Headers;

  /** An indexer database on a PostgreSQL server of its own. */
  async function startIndexer(dir: string, port?: number): Promise<ChildPostgres> {
    const pg = await startChildPostgres({ dir, port });
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    const exists = await c.query("SELECT 1 FROM pg_database WHERE datname = 'indexer'");
    if (!exists.rowCount) await c.query('CREATE DATABASE indexer');
    await c.end();
    return pg;
  }
  const dbUrl = (pg: ChildPostgres) => Object.assign(new URL(pg.url), { pathname: '/indexer' }).toString();

  async function entriesOn(url: string): Promise<number> {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      return Number((await c.query('SELECT coalesce(sum(n), 0) AS n FROM block')).rows[0].n);
    } finally {
      await c.end();
    }
  }

  const now = Date.now();
  const range = { SearchStart: new Date(now - 3_600_000).toISOString(), SearchEnd: new Date(now + 60_000).toISOString() };
  const count = () => svc.request('POST', '/api/search/direct', { headers: admin, json: { SearchString: 'tag=spread count', Format: 'csv', ...range } });
  /** The count's CSV: a header line, then one row whose last column is the number. */
  const counted = (text: string) => text.trim().split(/\r?\n/).pop()!.split(',').pop();
  const ingest = (first: number, n: number) =>
    svc.request('PUT', '/api/ingest/json', {
      headers: admin,
      json: Array.from({ length: n }, (_, i) => ({ TS: new Date(now - 60_000 + first + i).toISOString(), Tag: 'spread', Data: b64(`entry ${first + i}`) })),
    });

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), 'search-fault-indexer-')));
      servers.push(await startIndexer(dirs[i]));
    }
    mainUrl = await createTestDatabase();
    indexerUrls = [mainUrl, ...servers.map(dbUrl)];
    svc = new ServiceProcess(mainUrl, { INDEXER_URLS: indexerUrls.join(','), DB_CONNECT_TIMEOUT_MS: '1000' });
    await svc.start();
    admin = await svc.asAdmin();
  }, 180000);
  afterAll(async () => {
    if (svc && !svc.alive) process.stderr.write(`service output:\n${svc.output}\n`);
    await svc?.dispose();
    for (const s of servers) await s.stop().catch(() => undefined);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('spreads ingest over the three servers and merges their answers in one search', async () => {
    for (let b = 0; b < BATCHES; b++) expect((await ingest(b * PER_BATCH, PER_BATCH)).status).toBe(200);
    const per = await Promise.all(indexerUrls.map(entriesOn));
    expect(per).toEqual([100, 100, 100]); // round robin, one batch at a time
    const res = await count();
    expect(res.status).toBe(200);
    expect(counted(res.text)).toBe(String(BATCHES * PER_BATCH));
    // Entries merge newest first across servers.
    const text = await svc.request('POST', '/api/search/direct', { headers: admin, json: { SearchString: 'tag=spread', Format: 'text', ...range } });
    expect(text.status).toBe(200);
    const lines = text.text.trim().split('\n');
    expect(lines).toHaveLength(BATCHES * PER_BATCH);
    const order = lines.map((l) => Number(/entry (\d+)/.exec(l)![1]));
    expect(order).toEqual([...order].sort((a, b) => b - a));
  });

  it('an indexer server that stops: searches answer 503 naming it, ingest goes to the others, and all is found once it is back', async () => {
    const port = Number(new URL(servers[1].url).port);
    await servers[1].stop();
    const down = await count();
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ Error: `Indexer 127.0.0.1:${port}/indexer is unavailable`, Code: 'INDEXER_UNAVAILABLE', RequestId: expect.any(String) });
    // Acknowledged while it is down: stored on the two servers that answer.
    for (let b = 0; b < 4; b++) expect((await ingest(10_000 + b * PER_BATCH, PER_BATCH)).status).toBe(200);
    expect(svc.alive).toBe(true);

    servers[1] = await startIndexer(dirs[1], port);
    let res = await count();
    for (let i = 0; i < 40 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      res = await count();
    }
    expect(res.status).toBe(200);
    expect(counted(res.text)).toBe(String(BATCHES * PER_BATCH + 4 * PER_BATCH));
    const per = await Promise.all(indexerUrls.map(entriesOn));
    expect(per.reduce((a, b) => a + b, 0)).toBe(BATCHES * PER_BATCH + 4 * PER_BATCH);
    expect(per[2]).toBe(100); // it stored nothing while down
  });
});
