import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface HistoryRow {
  uid: number;
  gid: number;
  gids: number[];
  global: boolean;
  userQuery: string;
  effectiveQuery: string;
  launched: Date;
}

export interface HistoryFilter {
  /** undefined: every user */
  uid?: number;
  refine?: string;
  offset: number;
  limit: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

@Injectable()
export class SearchHistoryRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async insert(r: HistoryRow): Promise<void> {
    await this.ds.query(`INSERT INTO search_history (uid, gid, gids, global, user_query, effective_query, launched) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      r.uid,
      r.gid,
      r.gids,
      r.global,
      r.userQuery,
      r.effectiveQuery,
      r.launched,
    ]);
  }

  /** Most recent first. */
  async list(f: HistoryFilter): Promise<HistoryRow[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (f.uid !== undefined) {
      args.push(f.uid);
      where.push(`uid = $${args.length}`);
    }
    if (f.refine) {
      args.push(`%${escapeLike(f.refine)}%`);
      where.push(`(user_query ILIKE $${args.length} OR effective_query ILIKE $${args.length})`);
    }
    args.push(f.limit, f.offset);
    const rows: Array<Record<string, unknown>> = await this.ds.query(
      `SELECT uid, gid, gids, global, user_query, effective_query, launched FROM search_history
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY launched DESC, id DESC LIMIT $${args.length - 1} OFFSET $${args.length}`,
      args,
    );
    return rows.map((r) => ({
      uid: r.uid as number,
      gid: r.gid as number,
      gids: (r.gids as number[]) ?? [],
      global: r.global as boolean,
      userQuery: r.user_query as string,
      effectiveQuery: r.effective_query as string,
      launched: r.launched as Date,
    }));
  }
}
