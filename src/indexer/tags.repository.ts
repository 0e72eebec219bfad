import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { refusal } from '../common/errors/app-error';

/** Tag numbers are a smallint: 0 (`default`) to 32767. */
const MAX_TAG_ID = 32767;

/** The tag map (name <-> small integer) in the main database; the one authority for every indexer. */
@Injectable()
export class TagsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async all(): Promise<Array<{ id: number; name: string }>> {
    return this.ds.query(`SELECT id, name FROM tag ORDER BY name`);
  }

  /**
   * Ids of the names, creating missing ones for `creator`, who may have created at most
   * `maxPerUser` tags in all. New tags take the lowest numbers no tag holds, under a table lock:
   * nothing is consumed by a refused request or a lost race (an identity sequence was), and
   * numbers left free earlier are used again.
   */
  async ensure(names: string[], creator: number, maxPerUser: number): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!names.length) return out;
    const read = async (q: { query: DataSource['query'] }) => {
      const rows: Array<{ id: number; name: string }> = await q.query(`SELECT id, name FROM tag WHERE name = ANY($1::text[])`, [names]);
      for (const r of rows) out.set(r.name, r.id);
    };
    await read(this.ds);
    if (names.every((n) => out.has(n))) return out;
    await this.ds.transaction(async (tx) => {
      // Creators wait for each other; readers of the tag map do not wait.
      await tx.query(`LOCK TABLE tag IN SHARE ROW EXCLUSIVE MODE`);
      await read(tx);
      const missing = names.filter((n) => !out.has(n));
      if (!missing.length) return;
      const [{ n }]: Array<{ n: number }> = await tx.query(`SELECT count(*)::int AS n FROM tag WHERE created_by = $1`, [creator]);
      if (n + missing.length > maxPerUser) throw refusal('TOO_MANY_TAGS', maxPerUser, n);
      const free: Array<{ id: number }> = await tx.query(
        `SELECT g AS id FROM generate_series(1, ${MAX_TAG_ID}) g WHERE NOT EXISTS (SELECT 1 FROM tag WHERE id = g) ORDER BY g LIMIT $1`,
        [missing.length],
      );
      if (free.length < missing.length) throw refusal('TAG_NUMBERS_EXHAUSTED', free.length);
      await tx.query(`INSERT INTO tag (id, name, created_by) SELECT * FROM unnest($1::smallint[], $2::text[], $3::int[])`, [
        free.map((f) => f.id),
        missing,
        missing.map(() => creator),
      ]);
      missing.forEach((name, i) => out.set(name, free[i].id));
    });
    return out;
  }
}
