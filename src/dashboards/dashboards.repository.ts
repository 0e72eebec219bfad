import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DashboardEntity } from './dashboard.entity';

export type NewDashboard = Pick<DashboardEntity, 'id' | 'guid' | 'uid' | 'name' | 'description' | 'gids' | 'global' | 'labels' | 'data'>;
export type DashboardPatch = Partial<Omit<NewDashboard, 'id'>>;

/** The only file with queries on `dashboard`. */
@Injectable()
export class DashboardsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(DashboardEntity);
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
    return this.repo.findOneBy({ id });
  }

  findByGuid(guid: string): Promise<DashboardEntity[]> {
    return this.repo.find({ where: { guid }, order: { id: 'ASC' } });
  }

  listAll(): Promise<DashboardEntity[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }

  listOwnedBy(uid: number): Promise<DashboardEntity[]> {
    return this.repo.find({ where: { uid }, order: { id: 'ASC' } });
  }

  /** Owned by `uid`, shared with one of `gids`, or (when `withGlobal`) global. */
  listReachable(uid: number, gids: number[], withGlobal: boolean): Promise<DashboardEntity[]> {
    return this.repo
      .createQueryBuilder('d')
      .where('(d.uid = :uid OR d.gids && :gids::integer[]' + (withGlobal ? ' OR d.global)' : ')'), { uid, gids })
      .orderBy('d.id', 'ASC')
      .getMany();
  }

  listSharedWith(gid: number): Promise<DashboardEntity[]> {
    return this.repo.createQueryBuilder('d').where(':gid = ANY(d.gids)', { gid }).orderBy('d.id', 'ASC').getMany();
  }

  async update(id: number, patch: DashboardPatch): Promise<void> {
    const sets: string[] = ['updated_at = now()'];
    const params: unknown[] = [id];
    const col: Record<keyof DashboardPatch, string> = {
      guid: 'guid', uid: 'uid', name: 'name', description: 'description', gids: 'gids', global: 'global', labels: 'labels', data: 'data',
    };
    for (const [key, column] of Object.entries(col) as Array<[keyof DashboardPatch, string]>) {
      if (!(key in patch)) continue;
      const value = patch[key];
      params.push(key === 'data' ? JSON.stringify(value) : value);
      sets.push(`${column} = $${params.length}${key === 'data' ? '::json' : ''}`);
    }
    await this.ds.query(`UPDATE dashboard SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  async delete(id: number): Promise<void> {
    await this.repo.delete({ id });
  }
}
