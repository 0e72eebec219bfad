import { Injectable } from '@nestjs/common';
import { AuthContext } from '../auth/auth.types';
import { forbidden, notFound } from '../common/errors/app-error';
import { UsersService } from '../users/users.service';
import { UserDetailsDto } from '../users/users.dto';
import { CreateGroupDto, GroupDetailsDto, toGroupDetails, UpdateGroupDto } from './groups.dto';
import { GroupsRepository } from './groups.repository';

/** Groups: everyone may list them; only admins change them (guarded at the route). */
@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    private readonly users: UsersService,
  ) {}

  async list(): Promise<GroupDetailsDto[]> {
    return (await this.groups.listAll()).map(toGroupDetails);
  }

  async get(gid: number): Promise<GroupDetailsDto> {
    const g = await this.groups.findByGid(gid);
    if (!g) throw notFound('Group');
    return toGroupDetails(g);
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

  /** Members of a group: admins, or members of that group. */
  async members(auth: AuthContext, gid: number): Promise<UserDetailsDto[]> {
    await this.get(gid);
    if (!auth.isAdmin && !auth.gids.includes(gid)) throw forbidden('Only members of the group and admins may list its members');
    return this.users.detailsOfMembers(gid);
  }
}
