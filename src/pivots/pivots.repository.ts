import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PivotEntity } from './pivot.entity';
import { whereReachable } from '../sharing/reachable';

export type NewPivot = Pick<PivotEntity, 'thingUuid' | 'guid' | 'uid' | 'gids' | 'global' | 'labels' | 'name' | 'description' | 'contents' | 'disabled'>;
export type PivotPatch = Partial<Omit<NewPivot, 'thingUuid' | 'guid'>>;

const ORDER = { createdAt: 'ASC', thingUuid: 'ASC' } as const;

/** The only file with queries on `pivot`. */
@Injectable()
export class PivotsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(PivotEntity);
  }

  async insert(p: NewPivot): Promise<void> {
    await this.repo.insert(p);
  }

  findByThingUuid(thingUuid: string): Promise<PivotEntity | null> {
    return this.repo.findOneBy({ thingUuid });
  }

  findByGuid(guid: string): Promise<PivotEntity[]> {
    return this.repo.find({ where: { guid }, order: ORDER });
  }

  /** The owner of the oldest actionable holding this GUID. */
  async firstHolderOfGuid(guid: string): Promise<number | undefined> {
    return (await this.repo.findOne({ where: { guid }, order: ORDER }))?.uid;
  }

  listAll(): Promise<PivotEntity[]> {
    return this.repo.find({ order: ORDER });
  }

  /** What the caller reaches without admin rights: own, shared with one of `gids`, global. */
  listReachable(uid: number, gids: readonly number[]): Promise<PivotEntity[]> {
    return whereReachable(this.repo.createQueryBuilder('p'), 'p', uid, gids).orderBy('p.created_at', 'ASC').addOrderBy('p.thing_uuid', 'ASC').getMany();
  }

  async update(thingUuid: string, patch: PivotPatch): Promise<void> {
    await this.repo.update({ thingUuid }, { ...patch, updatedAt: () => 'now()' });
  }

  async delete(thingUuid: string): Promise<void> {
    await this.repo.delete({ thingUuid });
  }
}
