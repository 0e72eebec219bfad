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
}
