import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Playbooks (issue 26): a shared object keyed by the product's UUID, with a GUID unique per owner,
 * the markdown body and the product console's metadata as bytes, and the author. A deleted group
 * leaves their GIDs like every other shared kind's: through a trigger of its own on `app_group`
 * (not by rewriting `forget_deleted_group()`, which each kind's migration would otherwise replace
 * with its own list of tables).
 */
export class Playbooks1796000740000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE playbook (
        uuid uuid CONSTRAINT playbook_pkey PRIMARY KEY,
        guid uuid NOT NULL,
        uid integer NOT NULL CONSTRAINT playbook_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        labels text[] NOT NULL DEFAULT '{}',
        name varchar(256) NOT NULL,
        description text NOT NULL DEFAULT '',
        body bytea NOT NULL,
        metadata bytea NOT NULL,
        author_name text NOT NULL DEFAULT '',
        author_email text NOT NULL DEFAULT '',
        author_company text NOT NULL DEFAULT '',
        author_url text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX playbook_uid_guid_uq ON playbook (uid, guid)`);
    await q.query(`CREATE INDEX playbook_guid_idx ON playbook (guid)`);
    await q.query(`CREATE INDEX playbook_gids_idx ON playbook USING gin (gids)`);
    await q.query(`
      CREATE FUNCTION playbook_forget_deleted_group() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE playbook SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER playbook_forget_deleted_group_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION playbook_forget_deleted_group()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER playbook_forget_deleted_group_trg ON app_group`);
    await q.query(`DROP FUNCTION playbook_forget_deleted_group()`);
    await q.query(`DROP TABLE playbook`);
  }
}
