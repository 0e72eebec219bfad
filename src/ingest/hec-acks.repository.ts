import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** HEC acknowledgement IDs per (token owner, channel) in the main database. */
@Injectable()
export class HecAcksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The channel's next ack ID, recorded as answerable for `retentionSeconds`. One statement
   * (atomic): the counter row is locked while it moves, so concurrent requests get distinct IDs.
   * A channel outlives every ID it issued, so deleting an expired channel deletes no live ID.
   */
  async issue(uid: number, channel: string, retentionSeconds: number): Promise<number> {
    const rows: Array<{ ack_id: string }> = await this.ds.query(
      `WITH seq AS (
         INSERT INTO hec_ack_channel AS c (uid, channel, next_ack_id, expires_at)
         VALUES ($1, $2, 1, now() + make_interval(secs => $3))
         ON CONFLICT (uid, channel) DO UPDATE SET next_ack_id = c.next_ack_id + 1, expires_at = GREATEST(c.expires_at, EXCLUDED.expires_at)
         RETURNING next_ack_id - 1 AS ack_id
       )
       INSERT INTO hec_ack (uid, channel, ack_id, expires_at) SELECT $1, $2, ack_id, now() + make_interval(secs => $3) FROM seq RETURNING ack_id`,
      [uid, channel, retentionSeconds],
    );
    return Number(rows[0].ack_id);
  }

  /** Which of `ids` were issued to this owner on this channel and have not expired. */
  async unexpired(uid: number, channel: string, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows: Array<{ ack_id: string }> = await this.ds.query(
      `SELECT ack_id FROM hec_ack WHERE uid = $1 AND channel = $2 AND ack_id = ANY($3::bigint[]) AND expires_at > now()`,
      [uid, channel, ids],
    );
    return new Set(rows.map((r) => Number(r.ack_id)));
  }

  /** Deletes expired IDs, and channels unused for the whole retention (their IDs expired with them). */
  async deleteExpired(): Promise<void> {
    await this.ds.query(`DELETE FROM hec_ack WHERE expires_at <= now()`);
    await this.ds.query(`DELETE FROM hec_ack_channel WHERE expires_at <= now()`);
  }
}
