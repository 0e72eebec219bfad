import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EntityReader } from '../database/entity-reader';
import { DashboardEntity } from './dashboard.entity';

export type NewDashboard = Pick<DashboardEntity, 'id' | 'guid' | 'uid' | 'name' | 'description' | 'gids' | 'global' | 'labels' | 'data'>;
export type DashboardPatch = Partial<Omit<NewDashboard, 'id'>>;

/** `updated_at` in whole microseconds since the epoch (exact: extract() is numeric). */
const VERSION_SQL = 'floor(extract(epoch from updated_at) * 1000000)::bigint';

/** The only file with queries on `dashboard`. */
@Injectable()
export class DashboardsRepository {
  private readonly read: EntityReader<DashboardEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.read = new EntityReader(ds, DashboardEntity, 'd');
  }

  /** Inserts unless the random ID is taken; false on a collision (the caller draws another). */
  async insertIfIdFree(d: NewDashboard): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `INSERT INTO dashboard (id, guid, uid, name, description, gids, global, labels, data)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json)
       ON CONFLICT ON CONSTRAINT dashboard_pkey DO NOTHING RETURNING id`,
      [d.id, d.guid, d.uid, d.name, d.description, d.gids, d.global, d.labels, JSON.stringify(d.data)],
    );
    return rows.length === 1;
  }

  findById(id: number): Promise<DashboardEntity | null> {
    return this.read.one('WHERE d.id = $1', [id]);
  }

  findByGuid(guid: string): Promise<DashboardEntity[]> {
    return this.read.many('WHERE d.guid = $1 ORDER BY d.id', [guid]);
  }

  /** The owner of the oldest dashboard holding this GUID. */
  async firstHolderOfGuid(guid: string): Promise<number | undefined> {
    const rows: Array<{ uid: number }> = await this.ds.query('SELECT uid FROM dashboard WHERE guid = $1 ORDER BY created_at, id LIMIT 1', [guid]);
    return rows[0]?.uid;
  }

  listAll(): Promise<DashboardEntity[]> {
    return this.read.many('ORDER BY d.id');
  }

  listOwnedBy(uid: number): Promise<DashboardEntity[]> {
    return this.read.many('WHERE d.uid = $1 ORDER BY d.id', [uid]);
  }

  /** Owned by `uid`, shared with one of `gids`, or (when `withGlobal`) global. */
  listReachable(uid: number, gids: number[], withGlobal: boolean): Promise<DashboardEntity[]> {
    return this.read.many(`WHERE (d.uid = $1 OR d.gids && $2::integer[]${withGlobal ? ' OR d.global' : ''}) ORDER BY d.id`, [uid, gids]);
  }

  listSharedWith(gid: number): Promise<DashboardEntity[]> {
    return this.read.many('WHERE $1 = ANY(d.gids) ORDER BY d.id', [gid]);
  }

  /**
   * The stored version of a dashboard: its Updated time in microseconds (text), or null when it
   * does not exist. Every update moves it forward (see update), so it serves as the ETag.
   */
  async versionOf(id: number): Promise<string | null> {
    const rows: Array<{ v: string }> = await this.ds.query(`SELECT ${VERSION_SQL}::text AS v FROM dashboard WHERE id = $1`, [id]);
    return rows[0]?.v ?? null;
  }

  /**
   * Applies the patch; with `ifVersion` only while the stored version is one of those (an
   * `If-Match` precondition). Returns the version this update wrote (from the same statement, so
   * no other save can come between), or null when no row changed.
   */
  async update(id: number, patch: DashboardPatch, ifVersion?: string[]): Promise<string | null> {
    // Strictly later than the previous value, so two saves never share a version.
    const sets: string[] = ["updated_at = greatest(clock_timestamp(), updated_at + interval '1 microsecond')"];
    const params: unknown[] = [id];
    const col: Record<keyof DashboardPatch, string> = {
      guid: 'guid',
      uid: 'uid',
      name: 'name',
      description: 'description',
      gids: 'gids',
      global: 'global',
      labels: 'labels',
      data: 'data',
    };
    for (const [key, column] of Object.entries(col) as Array<[keyof DashboardPatch, string]>) {
      if (!(key in patch)) continue;
      const value = patch[key];
      params.push(key === 'data' ? JSON.stringify(value) : value);
      sets.push(`${column} = $${params.length}${key === 'data' ? '::json' : ''}`);
    }
    let where = 'id = $1';
    if (ifVersion) {
      params.push(ifVersion);
      where += ` AND ${VERSION_SQL}::text = ANY($${params.length}::text[])`;
    }
    const [rows] = (await this.ds.query(`UPDATE dashboard SET ${sets.join(', ')} WHERE ${where} RETURNING ${VERSION_SQL}::text AS v`, params)) as [Array<{ v: string }>, number];
    return rows[0]?.v ?? null;
  }

  async delete(id: number): Promise<void> {
    await this.ds.query('DELETE FROM dashboard WHERE id = $1', [id]);
  }
}
