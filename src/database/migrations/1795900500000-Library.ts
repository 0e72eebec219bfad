import { MigrationInterface, QueryRunner } from 'typeorm';

/** The search library: saved queries with a server-assigned ThingUUID and a GUID several entries may share. */
export class Library1795900500000 implements MigrationInterface {
  name = 'Library1795900500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE library_entry (
        thing_uuid uuid CONSTRAINT library_entry_pkey PRIMARY KEY,
        guid uuid NOT NULL,
        uid integer NOT NULL CONSTRAINT library_entry_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        name varchar(256) NOT NULL,
        description text NOT NULL DEFAULT '',
        query text NOT NULL DEFAULT '',
        labels text[] NOT NULL DEFAULT '{}',
        metadata json NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX library_entry_uid_idx ON library_entry (uid)`);
    await q.query(`CREATE INDEX library_entry_guid_idx ON library_entry (guid)`);
    await q.query(`CREATE INDEX library_entry_gids_idx ON library_entry USING gin (gids)`);
    // GIDs is an array (no FK): a deleted group is removed from every entry's GIDs.
    await q.query(`
      CREATE FUNCTION library_entry_forget_group() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE library_entry SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER library_entry_forget_group_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION library_entry_forget_group()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER library_entry_forget_group_trg ON app_group`);
    await q.query(`DROP FUNCTION library_entry_forget_group()`);
    await q.query(`DROP TABLE library_entry`);
  }
}
