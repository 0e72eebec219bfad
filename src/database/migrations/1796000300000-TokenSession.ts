import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which login session minted a token (a token minted by a token inherits its session), so that
 * ending sessions in response to a theft (password change, log out everywhere) also revokes the
 * tokens they minted. No foreign key: the session row goes first, the token stays until then.
 */
export class TokenSession1796000300000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_token ADD COLUMN session_id uuid NULL`);
    await q.query(`CREATE INDEX api_token_session_idx ON api_token (session_id) WHERE session_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_token_session_idx`);
    await q.query(`ALTER TABLE api_token DROP COLUMN session_id`);
  }
}
