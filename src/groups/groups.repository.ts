import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GroupEntity } from './group.entity';

@Injectable()
export class GroupsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(GroupEntity);
  }

  findByGid(gid: number): Promise<GroupEntity | null> {
    return this.repo.findOneBy({ gid });
  }

  listAll(): Promise<GroupEntity[]> {
    return this.repo.find({ order: { gid: 'ASC' } });
  }

  async insert(name: string, description: string): Promise<number> {
    const res = await this.repo.insert({ name, description });
    return (res.identifiers[0] as { gid: number }).gid;
  }

  async update(gid: number, patch: Partial<Pick<GroupEntity, 'name' | 'description'>>): Promise<void> {
    await this.repo.update({ gid }, { ...patch, updatedAt: new Date() });
  }

  async delete(gid: number): Promise<void> {
    await this.repo.delete({ gid });
  }

  /** Of the given GIDs, those that exist. */
  async existing(gids: readonly number[]): Promise<number[]> {
    if (!gids.length) return [];
    const rows: Array<{ gid: number }> = await this.ds.query(`SELECT gid FROM app_group WHERE gid = ANY($1::integer[])`, [gids]);
    return rows.map((r) => r.gid);
  }
}
