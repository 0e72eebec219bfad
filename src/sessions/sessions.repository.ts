import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
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
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

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
  }

  async deleteAllForUser(uid: number, tx?: EntityManager, exceptSid?: string): Promise<void> {
    const qb = this.repo(tx).createQueryBuilder().delete().where('uid = :uid', { uid });
    if (exceptSid) qb.andWhere('id <> :sid', { sid: exceptSid });
    await qb.execute();
  }

  async deleteExpired(): Promise<void> {
    await this.ds.query(`DELETE FROM session WHERE expires_at < now()`);
  }
}
