import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search templates (issue 26): a shared object with the product's ThingUUID (the row) and GUID
 * (what content names it by; several owners may reuse one), its query and its variables (the
 * product's TemplateVariable list, as JSON). A deleted group leaves their GIDs like every other
 * shared kind's, through a trigger of its own (rather than redefining forget_deleted_group(), so
 * that kinds added side by side do not overwrite each other's list).
 */
export class Templates1796000720000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE template (
        thing_uuid uuid CONSTRAINT template_pkey PRIMARY KEY,
        guid uuid NOT NULL,
        uid integer NOT NULL CONSTRAINT template_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        labels text[] NOT NULL DEFAULT '{}',
        name varchar(256) NOT NULL,
        description text NOT NULL DEFAULT '',
        query text NOT NULL DEFAULT '',
        variables jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX template_uid_idx ON template (uid)`);
    await q.query(`CREATE INDEX template_guid_idx ON template (guid)`);
    await q.query(`CREATE INDEX template_gids_idx ON template USING gin (gids)`);
    await q.query(`
      CREATE FUNCTION template_forget_group() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE template SET gids = array_remove(gids, OLD.gid) WHERE gids @> ARRAY[OLD.gid];
        RETURN OLD;
      END $$`);
    await q.query(`CREATE TRIGGER template_forget_group_trg AFTER DELETE ON app_group FOR EACH ROW EXECUTE FUNCTION template_forget_group()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER template_forget_group_trg ON app_group`);
    await q.query(`DROP FUNCTION template_forget_group()`);
    await q.query(`DROP TABLE template`);
  }
}
