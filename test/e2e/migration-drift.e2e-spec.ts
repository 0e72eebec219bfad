/**
 * The migrations match the entities (issue 25): on an empty database the service runs its own
 * migrations at start-up, then TypeORM's schema builder compares the entities the app registers
 * with that schema. Any query it would put in a generated migration is drift: a column, index,
 * constraint or default changed in an entity without a migration (or the other way round). The
 * test fails and prints those queries; write the migration they describe (or fix the entity).
 * The entities declare every foreign key, index and CHECK constraint their migrations create, with
 * the migrations' names and ON DELETE rules (`@ForeignKey`, `@Index`, `@Check`; an index TypeORM
 * cannot express is declared with `@Index(name, { synchronize: false })`), so nothing is allowed.
 */
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { loadMigrations } from '../../src/database/migrations';
import { createTestApp, TestApp } from '../setup/app';
import { createTestDatabase } from '../setup/db';

describe('migrations and entities', () => {
  let t: TestApp;
  let ds: DataSource;

  beforeAll(async () => {
    t = await createTestApp({}, await createTestDatabase({ empty: true }));
    ds = t.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(() => t.close());

  it('the service ran every migration on the fresh database', async () => {
    expect(await ds.showMigrations()).toBe(false);
    const ran = (await ds.query(`SELECT name FROM migrations ORDER BY id`)) as { name: string }[];
    expect(ran.map((r) => r.name)).toEqual(loadMigrations().map((m) => m.name));
    expect(ds.entityMetadatas.length).toBeGreaterThan(0);
  });

  it('a migration generated from the entities would be empty', async () => {
    const sql = await ds.driver.createSchemaBuilder().log();
    const queries = sql.upQueries.map((q) => q.query.trim() + (q.parameters?.length ? ` -- parameters ${JSON.stringify(q.parameters)}` : ''));
    if (queries.length > 0) {
      throw new Error(`The entities differ from the migrated schema; a generated migration would run:\n\n${queries.map((q) => `  ${q};`).join('\n')}\n`);
    }
  });
});
