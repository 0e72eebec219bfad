import { MigrationInterface, QueryRunner } from 'typeorm';

/** User files: metadata rows; contents are immutable blobs under DATA_DIR named by `content_id`. */
export class Files1795900600000 implements MigrationInterface {
  name = 'Files1795900600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_file (
        thing_uuid uuid CONSTRAINT user_file_pkey PRIMARY KEY,
        guid uuid NOT NULL,
        uid integer NOT NULL CONSTRAINT user_file_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        gids integer[] NOT NULL DEFAULT '{}',
        global boolean NOT NULL DEFAULT false,
        name varchar(255) NOT NULL,
        description text NOT NULL DEFAULT '',
        labels text[] NOT NULL DEFAULT '{}',
        content_id uuid NOT NULL,
        size bigint NOT NULL DEFAULT 0 CONSTRAINT user_file_size_check CHECK (size >= 0),
        hash varchar(64) NOT NULL DEFAULT '',
        content_type varchar(255) NOT NULL DEFAULT 'application/octet-stream',
        updated timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX user_file_uid_guid_uq ON user_file (uid, guid)`);
    await q.query(`CREATE INDEX user_file_guid_idx ON user_file (guid)`);
    await q.query(`CREATE INDEX user_file_gids_idx ON user_file USING gin (gids)`);
    await q.query(`CREATE UNIQUE INDEX user_file_content_id_uq ON user_file (content_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_file`);
  }
}
