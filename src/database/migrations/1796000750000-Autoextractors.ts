import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Autoextractors (issue 26): a shared object with the product's UUID, the tags it extracts (one
 * definition per tag per owner, held by the service under an advisory lock: a text[] cannot carry
 * that unique key), its engine, Params and Args. A deleted group leaves their GIDs through a
 * trigger of its own, so this migration does not rewrite forget_deleted_group() (which lists
 * every other shared kind's table).
 */
export class Autoextractors1796000750000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE autoextractor (
        uuid uuid NOT NULL CONSTRAINT autoextractor_pkey PRIMARY KEY,
        uid integer NOT NULL CONSTRAINT autoextractor_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        labels text[] NOT NULL DEFAULT '{}',
        tags text[] NOT NULL,
        name varchar(256) NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        module varchar(32) NOT NULL,
        params text NOT NULL,
        args text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX autoextractor_uid_idx ON autoextractor (uid)`);
    await q.query(`CREATE INDEX autoextractor_tags_idx ON autoextractor USING gin (tags)`);
    await q.query(`CREATE INDEX autoextractor_gids_idx ON autoextractor USING gin (gids)`);
    await q.query(`
      CREATE FUNCTION forget_deleted_group_autoextractor() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE autoextractor SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER forget_deleted_group_autoextractor_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION forget_deleted_group_autoextractor()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER forget_deleted_group_autoextractor_trg ON app_group`);
    await q.query(`DROP FUNCTION forget_deleted_group_autoextractor()`);
    await q.query(`DROP TABLE autoextractor`);
  }
}
