import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthContext } from '../identity/auth.types';
import { SessionEvents } from './session-events';
import { SessionDto, toSessionDto } from './sessions.dto';
import { SessionsRepository } from './sessions.repository';

export interface EndAllOptions {
  /** Inside the caller's transaction: the caller announces the end after commit (`SessionEvents`). */
  tx?: EntityManager;
  /** The session that stays (the caller's own, on a password change). */
  except?: string;
  /** Also revoke the API tokens minted by the ended sessions (see `endAll`). */
  revokeMintedTokens?: boolean;
}

/**
 * Login sessions: created by a login, listed per user, ended by logout, lock, password change or
 * account deletion. Every end is announced (`SessionEvents`) so open websockets close at once.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly events: SessionEvents,
  ) {}

  create(id: string, uid: number, origin: string, expiresAt: Date): Promise<void> {
    return this.sessions.create({ id, uid, origin: origin.slice(0, 64), expiresAt });
  }

  /** The user's sessions that have not expired, most recently used first. */
  async listActive(uid: number): Promise<SessionDto[]> {
    const rows = await this.sessions.listForUser(uid);
    return rows.filter((s) => s.expiresAt.getTime() > Date.now()).map(toSessionDto);
  }

  /** `PUT /api/logout`: the caller's own session (a token has none). */
  async endCurrent(auth: AuthContext): Promise<void> {
    if (!auth.sessionId) return;
    await this.sessions.deleteOne(auth.uid, auth.sessionId);
    this.events.ended({ uid: auth.uid, sid: auth.sessionId });
  }

  /** `DELETE /api/logout`: every session of the user, and the API tokens sessions minted (see `endAll`). */
  logOutEverywhere(uid: number): Promise<void> {
    return this.endAll(uid, { revokeMintedTokens: true });
  }

  /**
   * Ends every session of the user (but `except`). With `revokeMintedTokens` (a password change,
   * "log out everywhere": answers to a stolen session) every API token minted by a login session
   * other than `except` goes too, also those of sessions that ended before (a thief may mint a
   * token and log out). Inside a transaction (`tx`) the caller announces the end after commit.
   */
  async endAll(uid: number, opts: EndAllOptions = {}): Promise<void> {
    await this.sessions.deleteAllForUser(uid, opts);
    if (!opts.tx) this.events.ended({ uid, except: opts.except });
  }

  /** Tells open connections that sessions ended inside a transaction that has now committed. */
  announceEnded(uid: number, except?: string): void {
    this.events.ended({ uid, except });
  }
}
