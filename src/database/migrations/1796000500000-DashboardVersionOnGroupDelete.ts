import { MigrationInterface, QueryRunner } from 'typeorm';

const SHARED_TABLES = ['dashboard', 'library_entry', 'resource', 'user_file', 'saved_search'];
const BUMP = "updated_at = greatest(clock_timestamp(), updated_at + interval '1 microsecond')";

const forgetFunction = (dashboardSet: string) => {
  const updates = SHARED_TABLES.map((t) => `UPDATE ${t} SET gids = array_remove(gids, OLD.gid)${t === 'dashboard' ? dashboardSet : ''} WHERE gids @> ARRAY[OLD.gid];`).join(
    '\n        ',
  );
  return `
      CREATE OR REPLACE FUNCTION forget_deleted_group() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        ${updates}
        RETURN OLD;
      END $$`;
};

/**
 * A dashboard's version (its ETag, for If-Match on PUT) is its `updated_at`. Deleting a group
 * changes the `GIDs` of the dashboards shared with it, so it moves their version forward too:
 * a client still holding the old `GIDs` can no longer save them back over the change.
 */
export class DashboardVersionOnGroupDelete1796000500000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(forgetFunction(`, ${BUMP}`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(forgetFunction(''));
  }
}
