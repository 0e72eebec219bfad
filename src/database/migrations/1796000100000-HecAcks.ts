import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * HEC indexer acknowledgements, bound to a channel of a token owner and kept across restarts:
 * a per-channel counter (numbering never restarts while the channel is in use) and the issued
 * IDs, each answerable until it expires (HEC_ACK_RETENTION_SECONDS).
 */
export class HecAcks1796000100000 implements MigrationInterface {
  name = 'HecAcks1796000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE hec_ack_channel (
        uid integer NOT NULL CONSTRAINT hec_ack_channel_uid_fkey REFERENCES app_user (uid) ON DELETE CASCADE,
        channel varchar(128) NOT NULL,
        next_ack_id bigint NOT NULL,
        expires_at timestamptz NOT NULL,
        CONSTRAINT hec_ack_channel_pkey PRIMARY KEY (uid, channel)
      )`);
    await q.query(`CREATE INDEX hec_ack_channel_expires_at_idx ON hec_ack_channel (expires_at)`);
    await q.query(`
      CREATE TABLE hec_ack (
        uid integer NOT NULL,
        channel varchar(128) NOT NULL,
        ack_id bigint NOT NULL,
        expires_at timestamptz NOT NULL,
        CONSTRAINT hec_ack_pkey PRIMARY KEY (uid, channel, ack_id),
        CONSTRAINT hec_ack_channel_fkey FOREIGN KEY (uid, channel) REFERENCES hec_ack_channel (uid, channel) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX hec_ack_expires_at_idx ON hec_ack (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE hec_ack`);
    await q.query(`DROP TABLE hec_ack_channel`);
  }
}
