import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreferenceKind } from './preference.entity';

/** A stored record with its JSON as text (exactly what was stored). */
export interface PreferenceRow {
  uid: number;
  name: PreferenceKind;
  json: string;
  updatedAt: Date;
}

/** The only file with queries on `user_preference`. */
@Injectable()
export class PreferencesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The stored JSON text, or undefined when the user has no record of that kind. */
  async findJson(uid: number, name: PreferenceKind): Promise<string | undefined> {
    const rows: Array<{ json: string }> = await this.ds.query(`SELECT data::text AS json FROM user_preference WHERE uid = $1 AND name = $2`, [uid, name]);
    return rows[0]?.json;
  }

  /** Insert or replace (the contract's PUT: stored even if none existed). */
  async upsert(uid: number, name: PreferenceKind, json: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO user_preference (uid, name, data, updated_at) VALUES ($1, $2, $3::json, now())
       ON CONFLICT ON CONSTRAINT user_preference_pkey DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
      [uid, name, json],
    );
  }

  async delete(uid: number, name: PreferenceKind): Promise<boolean> {
    const [, count] = (await this.ds.query(`DELETE FROM user_preference WHERE uid = $1 AND name = $2`, [uid, name])) as [unknown, number];
    return count > 0;
  }

  /** Every record of every user, both kinds (admin listing). */
  async listAll(): Promise<PreferenceRow[]> {
    const rows: Array<{ uid: number; name: PreferenceKind; json: string; updated_at: Date }> = await this.ds.query(
      `SELECT uid, name, data::text AS json, updated_at FROM user_preference ORDER BY uid, name`,
    );
    return rows.map((r) => ({ uid: r.uid, name: r.name, json: r.json, updatedAt: r.updated_at }));
  }
}
