import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { badRequest } from '../common/errors/app-error';

/** The tag map (name <-> small integer) in the main database; the one authority for every indexer. */
@Injectable()
export class TagsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async all(): Promise<Array<{ id: number; name: string }>> {
    return this.ds.query(`SELECT id, name FROM tag ORDER BY name`);
  }

  /** Ids of the names, creating missing ones (race-safe: insert, ignore conflicts, read back). */
  async ensure(names: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!names.length) return out;
    const read = async () => {
      const rows: Array<{ id: number; name: string }> = await this.ds.query(`SELECT id, name FROM tag WHERE name = ANY($1::text[])`, [names]);
      for (const r of rows) out.set(r.name, r.id);
    };
    await read();
    const missing = names.filter((n) => !out.has(n));
    if (!missing.length) return out;
    try {
      await this.ds.query(`INSERT INTO tag (name) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [missing]);
    } catch (err) {
      if ((err as { driverError?: { code?: string }; code?: string }).driverError?.code === '2200H' || (err as { code?: string }).code === '2200H') {
        throw badRequest('Too many tags: no tag number is left');
      }
      throw err;
    }
    await read();
    if (names.some((n) => !out.has(n))) throw new Error('tag creation raced; retry');
    return out;
  }
}
