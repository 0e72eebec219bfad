import { Client } from 'pg';
import { EmbeddedDatabase, removeDataDir } from '../../src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as Record<string, unknown>).__TEST_PG__ as { pg: EmbeddedDatabase; dir: string } | undefined;
  if (state) {
    await state.pg.stop();
    removeDataDir(state.dir);
    return;
  }
  // An external server: drop what this run created.
  const client = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await client.connect();
  const runId = process.env.TEST_RUN_ID;
  const dbs = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`, [`t_${runId}_%`, `tpl_${runId}`]);
  for (const { datname } of dbs.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  await client.end();
}
