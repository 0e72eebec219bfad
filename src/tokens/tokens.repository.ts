import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A token as the token API sees it. The secret digest never leaves this file. */
export interface TokenRow {
  id: string;
  uid: number;
  name: string;
  description: string;
  capabilities: string[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

export interface NewToken {
  id: string;
  uid: number;
  name: string;
  description: string;
  capabilities: string[];
  expiresAt: Date | null;
  secretDigest: Buffer;
  /** The login session, or the token, that makes it (a token's minted tokens inherit its session). */
  minter: { sessionId?: string; tokenId?: string };
}

export type TokenPatch = Partial<Pick<TokenRow, 'name' | 'description' | 'capabilities' | 'expiresAt'>>;

const COLUMNS = `id, uid, name, description, capabilities, created_at, expires_at, last_used_at`;

function toRow(r: Record<string, unknown>): TokenRow {
  return {
    id: r.id as string,
    uid: r.uid as number,
    name: r.name as string,
    description: r.description as string,
    capabilities: r.capabilities as string[],
    createdAt: r.created_at as Date,
    expiresAt: (r.expires_at as Date | null) ?? null,
    lastUsedAt: (r.last_used_at as Date | null) ?? null,
  };
}

@Injectable()
export class TokensRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Inserts the token unless its owner already has `max` tokens (the owner's row is locked so
   * concurrent creations cannot overshoot). Undefined when the limit is reached.
   */
  async insertWithinLimit(t: NewToken, max: number): Promise<TokenRow | undefined> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SELECT uid FROM app_user WHERE uid = $1 FOR UPDATE`, [t.uid]);
      const [{ n }]: Array<{ n: number }> = await tx.query(`SELECT count(*)::int AS n FROM api_token WHERE uid = $1`, [t.uid]);
      if (n >= max) return undefined;
      const rows: Array<Record<string, unknown>> = await tx.query(
        `INSERT INTO api_token (id, uid, name, description, capabilities, expires_at, secret_digest, session_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8::uuid, (SELECT session_id FROM api_token WHERE id = $9::uuid)))
         RETURNING ${COLUMNS}`,
        [t.id, t.uid, t.name, t.description, t.capabilities, t.expiresAt, t.secretDigest, t.minter.sessionId ?? null, t.minter.tokenId ?? null],
      );
      return toRow(rows[0]);
    });
  }

  async listOwned(uid: number): Promise<TokenRow[]> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(`SELECT ${COLUMNS} FROM api_token WHERE uid = $1 ORDER BY created_at, id`, [uid]);
    return rows.map(toRow);
  }

  async listAll(): Promise<TokenRow[]> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(`SELECT ${COLUMNS} FROM api_token ORDER BY uid, created_at, id`);
    return rows.map(toRow);
  }

  async findById(id: string): Promise<TokenRow | undefined> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(`SELECT ${COLUMNS} FROM api_token WHERE id = $1`, [id]);
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  async update(id: string, patch: TokenPatch): Promise<TokenRow | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.description !== undefined) set('description', patch.description);
    if (patch.capabilities !== undefined) set('capabilities', patch.capabilities);
    if (patch.expiresAt !== undefined) set('expires_at', patch.expiresAt);
    if (!sets.length) return this.findById(id);
    const rows: Array<Record<string, unknown>> = await this.ds.query(`UPDATE api_token SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`, params);
    // node-postgres answers UPDATE ... RETURNING with [rows, count] through TypeORM.
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as Array<Record<string, unknown>>;
    return list[0] ? toRow(list[0]) : undefined;
  }

  /** Replaces the secret (its digest) and the expiry: the old secret stops working at once. */
  async regenerate(id: string, secretDigest: Buffer, expiresAt: Date | null): Promise<TokenRow | undefined> {
    const rows: unknown[] = await this.ds.query(`UPDATE api_token SET secret_digest = $2, expires_at = $3 WHERE id = $1 RETURNING ${COLUMNS}`, [id, secretDigest, expiresAt]);
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as Array<Record<string, unknown>>;
    return list[0] ? toRow(list[0]) : undefined;
  }

  /** Revokes every token of the user; answers how many there were. */
  async deleteAllOwned(uid: number): Promise<number> {
    const rows: Array<{ id: string }> = await this.ds.query(`DELETE FROM api_token WHERE uid = $1 RETURNING id`, [uid]);
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as Array<{ id: string }>;
    return list.length;
  }

  async delete(id: string): Promise<boolean> {
    const rows: Array<{ id: string }> = await this.ds.query(`DELETE FROM api_token WHERE id = $1 RETURNING id`, [id]);
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as Array<{ id: string }>;
    return list.length > 0;
  }
}
