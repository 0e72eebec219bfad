import { MigrationInterface, QueryRunner } from 'typeorm';

/** Per-user JSON blobs: the preferences (`prefs`) and email settings (`emailSettings`) of each user. */
export class Preferences1795900200000 implements MigrationInterface {
  name = 'Preferences1795900200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_preference (
        uid integer NOT NULL CONSTRAINT user_preference_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        name varchar(32) NOT NULL CONSTRAINT user_preference_name_check CHECK (name IN ('prefs', 'emailSettings')),
        data json NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT user_preference_pkey PRIMARY KEY (uid, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE user_preference`);
  }
}
