import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SessionEvents } from './session-events';
import { SessionEntity } from './session.entity';

/** A session joined with the current state of its user: what authentication needs. */
export interface SessionIdentity {
  sid: string;
  expiresAt: Date;
  lastHit: Date;
  uid: number;
  username: string;
  admin: boolean;
  locked: boolean;
  gids: number[];
}

@Injectable()
export class SessionsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly events: SessionEvents,
  ) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.ds.manager).getRepository(SessionEntity);
  }

  async create(row: Pick<SessionEntity, 'id' | 'uid' | 'origin' | 'expiresAt'>): Promise<void> {
    await this.repo().insert(row);
  }

  async findIdentity(sid: string): Promise<SessionIdentity | undefined> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT s.id, s.expires_at, s.last_hit, u.uid, u.username, u.admin, u.locked,
              ARRAY(SELECT m.gid FROM group_member m WHERE m.uid = u.uid ORDER BY m.gid) AS gids
         FROM session s JOIN app_user u ON u.uid = s.uid
        WHERE s.id = $1`,
      [sid],
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      sid: r.id as string,
      expiresAt: r.expires_at as Date,
      lastHit: r.last_hit as Date,
      uid: r.uid as number,
      username: r.username as string,
      admin: r.admin as boolean,
      locked: r.locked as boolean,
      gids: r.gids as number[],
    };
  }

  /** Marks activity on the session and its user. */
  async touch(sid: string, uid: number): Promise<void> {
    await this.ds.query(`UPDATE session SET last_hit = now() WHERE id = $1`, [sid]);
    await this.ds.query(`UPDATE app_user SET last_active = now() WHERE uid = $1`, [uid]);
  }

  listForUser(uid: number): Promise<SessionEntity[]> {
    return this.repo().find({ where: { uid }, order: { lastHit: 'DESC' } });
  }

  async deleteOne(uid: number, sid: string): Promise<void> {
    await this.repo().delete({ uid, id: sid });
    this.events.ended({ uid, sid });
  }

  /**
   * Ends every session of the user (but `except`). With `revokeMintedTokens` (a password change,
   * "log out everywhere": answers to a stolen session) every API token minted by a login session
   * other than `except` goes too, also those of sessions that ended before (a thief may mint a
   * token and log out). Inside a transaction (`tx`) the caller announces the end after commit.
   */
  async deleteAllForUser(uid: number, opts: { tx?: EntityManager; except?: string; revokeMintedTokens?: boolean } = {}): Promise<void> {
    const run = (sql: string, params: unknown[]) => (opts.tx ?? this.ds.manager).query(sql, params);
    const keep = opts.except ?? null;
    if (opts.revokeMintedTokens) {
      await run(
        `DELETE FROM api_token WHERE uid = $1 AND session_id IS NOT NULL AND session_id IS DISTINCT FROM $2::uuid`,
        [uid, keep],
      );
    }
    await run(`DELETE FROM session WHERE uid = $1 AND id IS DISTINCT FROM $2::uuid`, [uid, keep]);
    if (!opts.tx) this.events.ended({ uid, except: opts.except });
  }

  async deleteExpired(): Promise<void> {
    await this.ds.query(`DELETE FROM session WHERE expires_at < now()`);
  }
}
