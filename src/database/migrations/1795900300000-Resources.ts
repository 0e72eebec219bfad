import { MigrationInterface, QueryRunner } from 'typeorm';

/** Resources: metadata rows; contents are immutable blobs under DATA_DIR named by `content_id`. */
export class Resources1795900300000 implements MigrationInterface {
  name = 'Resources1795900300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE resource (
        guid uuid CONSTRAINT resource_pkey PRIMARY KEY,
        uid integer NOT NULL CONSTRAINT resource_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        name varchar(255) NOT NULL,
        description text NOT NULL DEFAULT '',
        content_id uuid NULL,
        size bigint NOT NULL DEFAULT 0 CONSTRAINT resource_size_check CHECK (size >= 0),
        hash varchar(64) NOT NULL DEFAULT '',
        content_type varchar(255) NOT NULL DEFAULT 'application/octet-stream',
        version_number integer NOT NULL DEFAULT 0,
        domain integer NOT NULL DEFAULT 0,
        labels text[] NOT NULL DEFAULT '{}',
        last_modified timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX resource_uid_idx ON resource (uid)`);
    await q.query(`CREATE INDEX resource_gids_idx ON resource USING gin (gids)`);
    await q.query(`CREATE UNIQUE INDEX resource_content_id_uq ON resource (content_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE resource`);
  }
}
