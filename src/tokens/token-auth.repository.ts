import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { nonAdminTokensSql } from './token-settings.repository';

/** A token joined with the current state of its owner: what authentication needs. */
export interface TokenIdentity {
  id: string;
  capabilities: string[];
  expiresAt: Date | null;
  uid: number;
  username: string;
  admin: boolean;
  locked: boolean;
  gids: number[];
  /** False while admins have turned the token API off for non-admins and the owner is one. */
  tokensAllowed: boolean;
}

@Injectable()
export class TokenAuthRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The token with this digest and its owner's current state, including whether tokens of
   * this owner may be used at all (admins can turn tokens off for non-admins).
   */
  async findIdentityByDigest(digest: Buffer): Promise<TokenIdentity | undefined> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT t.id, t.capabilities, t.expires_at, u.uid, u.username, u.admin, u.locked,
              ARRAY(SELECT m.gid FROM group_member m WHERE m.uid = u.uid ORDER BY m.gid) AS gids,
              (u.admin OR ${nonAdminTokensSql('$2')}) AS tokens_allowed
         FROM api_token t JOIN app_user u ON u.uid = t.uid
        WHERE t.secret_digest = $1`,
      [digest, this.config.tokensForNonAdmins],
    );
    const r = rows[0];
    if (!r) return undefined;
    return {
      id: r.id as string,
      capabilities: r.capabilities as string[],
      expiresAt: r.expires_at as Date | null,
      uid: r.uid as number,
      username: r.username as string,
      admin: r.admin as boolean,
      locked: r.locked as boolean,
      gids: r.gids as number[],
      tokensAllowed: r.tokens_allowed as boolean,
    };
  }

  /** Records use at most about once a minute per token. */
  async touchLastUsed(id: string): Promise<void> {
    await this.ds.query(
      `UPDATE api_token SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
