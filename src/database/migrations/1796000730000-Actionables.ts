import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Actionables, the product's pivots (issue 26): a shared object named by a GUID (several owners
 * may hold one, as kits install it) and a ThingUUID (this instance), with its Contents as JSON.
 * A deleted group leaves their GIDs through a trigger of their own on app_group (the other kinds
 * of issue 26 add theirs the same way, so no migration rewrites another's list of tables).
 */
export class Actionables1796000730000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pivot (
        thing_uuid uuid CONSTRAINT pivot_pkey PRIMARY KEY,
        guid uuid NOT NULL,
        uid integer NOT NULL CONSTRAINT pivot_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        labels text[] NOT NULL DEFAULT '{}',
        name varchar(256) NOT NULL,
        description text NOT NULL DEFAULT '',
        contents json NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX pivot_guid_idx ON pivot (guid)`);
    await q.query(`CREATE INDEX pivot_uid_idx ON pivot (uid)`);
    await q.query(`CREATE INDEX pivot_gids_idx ON pivot USING gin (gids)`);
    await q.query(`
      CREATE FUNCTION forget_deleted_group_pivot() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE pivot SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER forget_deleted_group_pivot_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION forget_deleted_group_pivot()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER forget_deleted_group_pivot_trg ON app_group`);
    await q.query(`DROP FUNCTION forget_deleted_group_pivot()`);
    await q.query(`DROP TABLE pivot`);
  }
}
