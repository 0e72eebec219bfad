import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { loadMigrations } from '../../src/database/migrations';

/**
 * Once per run: a real PostgreSQL (DATABASE_URL, or a throwaway embedded one with fsync off),
 * and a template database migrated once. Each test file clones it (see db.ts).
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-test-pg-'));
    const pg = await startEmbeddedPostgres({ dir, fast: true });
    (globalThis as Record<string, unknown>).__TEST_PG__ = { pg, dir };
    adminUrl = pg.url;
  }
  const template = `tpl_${runId}`;
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${template}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const ds = new DataSource({ type: 'postgres', url: url.toString(), migrations: loadMigrations(), migrationsTransactionMode: 'each' });
  await ds.initialize();
  await ds.runMigrations();
  await ds.destroy();
  process.env.TEST_PG_ADMIN_URL = adminUrl;
  process.env.TEST_PG_TEMPLATE = template;
  process.env.TEST_RUN_ID = runId;
}
