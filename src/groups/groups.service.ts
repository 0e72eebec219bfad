import { Injectable } from '@nestjs/common';
import { refusal } from '../common/errors/app-error';
import { CreateGroupDto, GroupDetailsDto, toGroupDetails, UpdateGroupDto } from './groups.dto';
import { GroupsRepository } from './groups.repository';

/**
 * Groups: everyone may list them; only admins change them (guarded at the route). Memberships
 * (and `GET /api/groups/{id}/members`) belong to the users feature.
 */
@Injectable()
export class GroupsService {
  constructor(private readonly groups: GroupsRepository) {}

  async list(): Promise<GroupDetailsDto[]> {
    return (await this.groups.listAll()).map(toGroupDetails);
  }

  async get(gid: number): Promise<GroupDetailsDto> {
    const g = await this.groups.findByGid(gid);
    if (!g) throw refusal('GROUP_NOT_FOUND');
    return toGroupDetails(g);
  }

  /** Of the given GIDs, those that exist. */
  existing(gids: readonly number[]): Promise<number[]> {
    return this.groups.existing(gids);
  }

  /** 404 "Group not found" unless the group exists. */
  async requireExists(gid: number): Promise<void> {
    if (!(await this.groups.existing([gid])).length) throw refusal('GROUP_NOT_FOUND');
  }

  create(dto: CreateGroupDto): Promise<number> {
    return this.groups.insert(dto.Name, dto.Desc ?? '');
  }

  async update(gid: number, dto: UpdateGroupDto): Promise<GroupDetailsDto> {
    await this.get(gid);
    await this.groups.update(gid, { name: dto.Name, description: dto.Desc });
    return this.get(gid);
  }

  async delete(gid: number): Promise<void> {
    await this.get(gid);
    await this.groups.delete(gid);
  }
}
