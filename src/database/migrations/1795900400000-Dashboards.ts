import { MigrationInterface, QueryRunner } from 'typeorm';

/** Dashboards: random 53-bit IDs, a GUID several dashboards may share, owner, groups, global flag. */
export class Dashboards1795900400000 implements MigrationInterface {
  name = 'Dashboards1795900400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dashboard (
        id bigint CONSTRAINT dashboard_pkey PRIMARY KEY CONSTRAINT dashboard_id_check CHECK (id BETWEEN 1 AND 9007199254740991),
        guid uuid NOT NULL,
        uid integer NOT NULL CONSTRAINT dashboard_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        name varchar(256) NOT NULL,
        description text NOT NULL DEFAULT '',
        gids integer[] NULL,
        global boolean NOT NULL DEFAULT false,
        labels text[] NULL,
        data json NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX dashboard_uid_idx ON dashboard (uid)`);
    await q.query(`CREATE INDEX dashboard_guid_idx ON dashboard (guid)`);
    await q.query(`CREATE INDEX dashboard_gids_idx ON dashboard USING gin (gids)`);
    // GIDs is an array (no FK): a deleted group is removed from every dashboard's GIDs.
    await q.query(`
      CREATE FUNCTION dashboard_forget_group() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE dashboard SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER dashboard_forget_group_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION dashboard_forget_group()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER dashboard_forget_group_trg ON app_group`);
    await q.query(`DROP FUNCTION dashboard_forget_group()`);
    await q.query(`DROP TABLE dashboard`);
  }
}
