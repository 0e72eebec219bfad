import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SessionEntity } from './session.entity';

/**
 * Login sessions. The per-request read of a session (with its user's current state) is the auth
 * feature's (`AuthRepository`); this repository creates, lists and ends sessions.
 */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.ds.manager).getRepository(SessionEntity);
  }

  async create(row: Pick<SessionEntity, 'id' | 'uid' | 'origin' | 'expiresAt'>): Promise<void> {
    await this.repo().insert(row);
  }

  listForUser(uid: number): Promise<SessionEntity[]> {
    return this.repo().find({ where: { uid }, order: { lastHit: 'DESC' } });
  }

  async deleteOne(uid: number, sid: string): Promise<void> {
    await this.repo().delete({ uid, id: sid });
  }

  /**
   * Deletes every session of the user but `except`; with `revokeMintedTokens` also every API
   * token minted by a login session other than `except` (see SessionsService.endAll).
   */
  async deleteAllForUser(uid: number, opts: { tx?: EntityManager; except?: string; revokeMintedTokens?: boolean }): Promise<void> {
    const run = (sql: string, params: unknown[]) => (opts.tx ?? this.ds.manager).query(sql, params);
    const keep = opts.except ?? null;
    if (opts.revokeMintedTokens) {
      await run(`DELETE FROM api_token WHERE uid = $1 AND session_id IS NOT NULL AND session_id IS DISTINCT FROM $2::uuid`, [uid, keep]);
    }
    await run(`DELETE FROM session WHERE uid = $1 AND id IS DISTINCT FROM $2::uuid`, [uid, keep]);
  }
}
