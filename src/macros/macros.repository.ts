import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MacroEntity } from './macro.entity';
import { isUniqueViolation, PatchColumns, updateColumns } from '../database/partial-update';
import { whereReachable } from '../sharing/reachable';

export type NewMacro = Pick<MacroEntity, 'uid' | 'gids' | 'global' | 'labels' | 'name' | 'description' | 'expansion'>;
export type MacroPatch = Partial<NewMacro>;

const COLUMNS: PatchColumns<MacroPatch> = {
  uid: 'uid',
  gids: 'gids',
  global: 'global',
  labels: 'labels',
  name: 'name',
  description: 'description',
  expansion: 'expansion',
};

const ORDER = { createdAt: 'ASC', id: 'ASC' } as const;

/** The only file with queries on `macro`. */
@Injectable()
export class MacrosRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(MacroEntity);
  }

  /** The new macro's ID; undefined when the owner already has one of that name. */
  async insert(m: NewMacro): Promise<string | undefined> {
    const rows: Array<{ id: string }> = await this.ds.query(
      `INSERT INTO macro (uid, gids, global, labels, name, description, expansion) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (uid, name) DO NOTHING RETURNING id`,
      [m.uid, m.gids, m.global, m.labels, m.name, m.description, m.expansion],
    );
    return rows[0]?.id;
  }

  findById(id: string): Promise<MacroEntity | null> {
    return this.repo.findOneBy({ id });
  }

  listAll(): Promise<MacroEntity[]> {
    return this.repo.find({ order: ORDER });
  }

  listOwnedBy(uid: number): Promise<MacroEntity[]> {
    return this.repo.find({ where: { uid }, order: ORDER });
  }

  /** Macros shared with the group. */
  listSharedWith(gid: number): Promise<MacroEntity[]> {
    return this.repo.createQueryBuilder('m').where(':gid = ANY(m.gids)', { gid }).orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC').getMany();
  }

  /** What the caller reaches without admin rights: own, shared with one of `gids`, global. */
  listReachable(uid: number, gids: readonly number[], names?: readonly string[]): Promise<MacroEntity[]> {
    const q = whereReachable(this.repo.createQueryBuilder('m'), 'm', uid, gids);
    if (names) q.andWhere('m.name = ANY(:names::text[])', { names: [...names] });
    return q.orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC').getMany();
  }

  /** false when the owner already has another macro of that name. */
  async update(id: string, patch: MacroPatch): Promise<boolean> {
    try {
      await updateColumns(this.ds, 'macro', 'id', id, COLUMNS, patch);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }
}
