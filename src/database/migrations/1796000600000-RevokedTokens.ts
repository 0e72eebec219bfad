import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The digests of API token secrets that stopped working because the token was deleted
 * ('revoked', also when its owner was deleted) or refreshed ('replaced'), so a client still
 * sending one is told why instead of "unknown". Written by triggers on `api_token`, so every
 * path (DELETE, revoke-all, theft response, user deletion, refresh) records them; kept 90 days.
 */
export class RevokedTokens1796000600000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE revoked_token (
        secret_digest bytea NOT NULL,
        reason text NOT NULL,
        revoked_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT revoked_token_pkey PRIMARY KEY (secret_digest),
        CONSTRAINT revoked_token_reason_check CHECK (reason IN ('revoked', 'replaced'))
      )`);
    await q.query(`CREATE INDEX revoked_token_revoked_at_idx ON revoked_token (revoked_at)`);
    await q.query(`
      CREATE FUNCTION api_token_record_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          INSERT INTO revoked_token (secret_digest, reason)
            SELECT secret_digest, 'revoked' FROM old_rows
            ON CONFLICT (secret_digest) DO UPDATE SET reason = 'revoked', revoked_at = now();
        ELSE
          INSERT INTO revoked_token (secret_digest, reason)
            SELECT o.secret_digest, 'replaced' FROM old_rows o JOIN new_rows n ON n.id = o.id
             WHERE n.secret_digest <> o.secret_digest
            ON CONFLICT (secret_digest) DO NOTHING;
          -- Most updates (last use, a new name) replace no secret: nothing to record or prune.
          IF NOT FOUND THEN RETURN NULL; END IF;
        END IF;
        DELETE FROM revoked_token WHERE revoked_at < now() - interval '90 days';
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER api_token_deleted AFTER DELETE ON api_token REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION api_token_record_revoked()`);
    await q.query(
      `CREATE TRIGGER api_token_replaced AFTER UPDATE ON api_token REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION api_token_record_revoked()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER api_token_replaced ON api_token`);
    await q.query(`DROP TRIGGER api_token_deleted ON api_token`);
    await q.query(`DROP FUNCTION api_token_record_revoked()`);
    await q.query(`DROP TABLE revoked_token`);
  }
}
