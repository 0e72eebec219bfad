import { MigrationInterface, QueryRunner } from 'typeorm';

/** Service-wide settings changed at run time by admins (first: whether non-admins may use API tokens). */
export class TokenSettings1795900100000 implements MigrationInterface {
  name = 'TokenSettings1795900100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE setting (
        key text CONSTRAINT setting_pkey PRIMARY KEY,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE setting`);
  }
}
