import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { poolRows } from '../database/pool-query';
import { nonAdminTokensSql } from './token-settings.sql';

/** What every credential resolves to: its owner's current state, read on this request. */
interface OwnerState {
  uid: number;
  username: string;
  admin: boolean;
  locked: boolean;
  gids: number[];
}

/** A session joined with the current state of its user. */
export interface SessionIdentity extends OwnerState {
  sid: string;
  expiresAt: Date;
  lastHit: Date;
}

/** A token joined with the current state of its owner. */
export interface TokenIdentity extends OwnerState {
  id: string;
  capabilities: string[];
  expiresAt: Date | null;
  /** False while admins have turned the token API off for non-admins and the owner is one. */
  tokensAllowed: boolean;
}

/** The owner's columns and groups, read with the credential in one statement. */
const OWNER_SQL = `u.uid, u.username, u.admin, u.locked, ARRAY(SELECT m.gid FROM group_member m WHERE m.uid = u.uid ORDER BY m.gid) AS gids`;

const owner = (r: Record<string, unknown>): OwnerState => ({
  uid: r.uid as number,
  username: r.username as string,
  admin: r.admin as boolean,
  locked: r.locked as boolean,
  gids: r.gids as number[],
});

/**
 * The per-request identity reads of the global guard: a session or an API token, each with its
 * owner's current state (one query, straight on the pool: poolRows), and the throttled "last
 * used" marks. Sessions and tokens are otherwise the sessions and tokens features'.
 */
@Injectable()
export class AuthRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async findSession(sid: string): Promise<SessionIdentity | undefined> {
    const rows = await poolRows(
      this.ds,
      `SELECT s.id, s.expires_at, s.last_hit, ${OWNER_SQL}
         FROM session s JOIN app_user u ON u.uid = s.uid
        WHERE s.id = $1`,
      [sid],
    );
    const r = rows[0];
    if (!r) return undefined;
    return { ...owner(r), sid: r.id as string, expiresAt: r.expires_at as Date, lastHit: r.last_hit as Date };
  }

  /**
   * The token with this digest and its owner's current state, including whether tokens of
   * this owner may be used at all (admins can turn tokens off for non-admins).
   */
  async findToken(digest: Buffer): Promise<TokenIdentity | undefined> {
    const rows = await poolRows(
      this.ds,
      `SELECT t.id, t.capabilities, t.expires_at, ${OWNER_SQL},
              (u.admin OR ${nonAdminTokensSql('$2')}) AS tokens_allowed
         FROM api_token t JOIN app_user u ON u.uid = t.uid
        WHERE t.secret_digest = $1`,
      [digest, this.config.tokensForNonAdmins],
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      ...owner(r),
      id: r.id as string,
      capabilities: r.capabilities as string[],
      expiresAt: r.expires_at as Date | null,
      tokensAllowed: r.tokens_allowed as boolean,
    };
  }

  /** Why a secret no API token has any more stopped working: deleted ('revoked') or refreshed ('replaced'); undefined: never known (or over 90 days ago). */
  async revokedToken(digest: Buffer): Promise<'revoked' | 'replaced' | undefined> {
    const rows = await poolRows(this.ds, `SELECT reason FROM revoked_token WHERE secret_digest = $1`, [digest]);
    return rows[0]?.reason as 'revoked' | 'replaced' | undefined;
  }

  /** Marks activity on the session and its user. */
  async touchSession(sid: string, uid: number): Promise<void> {
    await this.ds.query(`UPDATE session SET last_hit = now() WHERE id = $1`, [sid]);
    await this.ds.query(`UPDATE app_user SET last_active = now() WHERE uid = $1`, [uid]);
  }

  /** Records a token's use at most about once a minute. */
  async touchToken(id: string): Promise<void> {
    await this.ds.query(
      `UPDATE api_token SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
