import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every table whose `gids` array shares its rows with groups (an array: no foreign key can clean it). */
const SHARED_TABLES = ['dashboard', 'library_entry', 'resource', 'user_file', 'saved_search'];

/**
 * A deleted group is removed from the `gids` of every shared object, in the same transaction as
 * the delete. Dashboards and library entries had a trigger each; resources, user files and
 * saved searches had none and kept the stale ID. One trigger now covers them all, and the
 * stale IDs already stored are removed.
 */
export class ForgetDeletedGroups1796000200000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER dashboard_forget_group_trg ON app_group`);
    await q.query(`DROP FUNCTION dashboard_forget_group()`);
    await q.query(`DROP TRIGGER library_entry_forget_group_trg ON app_group`);
    await q.query(`DROP FUNCTION library_entry_forget_group()`);
    const updates = SHARED_TABLES.map((t) => `UPDATE ${t} SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];`).join('\n        ');
    await q.query(`
      CREATE FUNCTION forget_deleted_group() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${updates}
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER forget_deleted_group_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION forget_deleted_group()`);
    for (const t of SHARED_TABLES) {
      await q.query(`UPDATE ${t} SET gids = ARRAY(SELECT g FROM unnest(gids) g WHERE g IN (SELECT gid FROM app_group)) WHERE gids IS NOT NULL AND cardinality(gids) > 0`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER forget_deleted_group_trg ON app_group`);
    await q.query(`DROP FUNCTION forget_deleted_group()`);
    for (const t of ['dashboard', 'library_entry']) {
      await q.query(`
        CREATE FUNCTION ${t}_forget_group() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE ${t} SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];
          RETURN OLD;
        END $$`);
      await q.query(`CREATE TRIGGER ${t}_forget_group_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION ${t}_forget_group()`);
    }
  }
}
