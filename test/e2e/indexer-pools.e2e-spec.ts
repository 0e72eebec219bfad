import { Client } from 'pg';
import { createTestApp, TestApp } from '../setup/app';
import { IndexerPools } from '../../src/indexer/indexer-pools';

/**
 * A checked-out indexer client whose server goes away between two queries (PostgreSQL stopped
 * or restarted while a scan holds its snapshot or a compaction holds its transaction) must not
 * end the process: pg emits 'error' on the client, and pg-pool listens only while it is idle.
 * CI once lost the service this way in the PostgreSQL-restart fault test.
 */
describe('indexer pools (e2e)', () => {
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    t = await createTestApp();
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  it('survives the server ending a checked-out client between queries, and the pool serves a fresh one', async () => {
    const pools = t.app.get(IndexerPools);
    const ix = pools.all[0];
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const held = await pools.connect(ix);
      const pid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      // 57P01 "terminating connection due to administrator command", as in a PostgreSQL stop.
      expect((await db.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0].ok).toBe(true);
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && (held as unknown as { _queryable: boolean })._queryable) await new Promise((r) => setTimeout(r, 20));
      expect((held as unknown as { _queryable: boolean })._queryable).toBe(false);
      await expect(held.query('SELECT 1')).rejects.toThrow();
      held.release();

      const fresh = await pools.connect(ix);
      try {
        expect((await fresh.query<{ one: number }>('SELECT 1 AS one')).rows[0].one).toBe(1);
        expect((await fresh.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid).not.toBe(pid);
      } finally {
        fresh.release();
      }
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
