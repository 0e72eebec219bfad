import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

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
}

@Injectable()
export class TokenAuthRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async findIdentityByDigest(digest: Buffer): Promise<TokenIdentity | undefined> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT t.id, t.capabilities, t.expires_at, u.uid, u.username, u.admin, u.locked,
              ARRAY(SELECT m.gid FROM group_member m WHERE m.uid = u.uid ORDER BY m.gid) AS gids
         FROM api_token t JOIN app_user u ON u.uid = t.uid
        WHERE t.secret_digest = $1`,
      [digest],
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
