import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL is unset: run the tests through jest (globalSetup starts PostgreSQL)');
  return url;
}

/**
 * A fresh database cloned from the migrated template: one per test file, so files run in parallel.
 * `{ empty: true }`: an empty database instead (no migrations run), for a test that runs them itself.
 * Either is dropped with the run (global-teardown.ts).
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<string> {
  const name = `t_${process.env.TEST_RUN_ID}_${randomBytes(4).toString('hex')}`;
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(options.empty ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${process.env.TEST_PG_TEMPLATE}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
