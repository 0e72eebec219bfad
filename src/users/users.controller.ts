import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { IdPipe } from '../common/validation/id.pipe';
import { GroupDetailsDto } from '../groups/groups.dto';
import { SessionListDto } from '../sessions/sessions.dto';
import { AddGroupsDto, AdminStatusDto, ChangePasswordDto, CreateUserDto, SearchGroupDto, UpdateUserDto, UserDetailsDto } from './users.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('api')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('info/whoami')
  @Auth({ anyToken: true })
  @ApiOkResponse({ type: UserDetailsDto })
  whoami(@CurrentAuth() auth: AuthContext): Promise<UserDetailsDto> {
    return this.users.whoami(auth);
  }

  @Get('users')
  @Auth({ capability: 'ListUsers' })
  @ApiOkResponse({ type: [UserDetailsDto] })
  list(@CurrentAuth() auth: AuthContext): Promise<UserDetailsDto[]> {
    return this.users.list(auth);
  }

  @Post('users')
  @HttpCode(200)
  @Auth({ admin: true })
  @ApiOkResponse({ type: Number, description: 'The new UID' })
  create(@Body() dto: CreateUserDto): Promise<number> {
    return this.users.create(dto);
  }

  @Get('users/:id')
  @Auth({ capability: 'UserRead' })
  @ApiOkResponse({ type: UserDetailsDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<UserDetailsDto> {
    return this.users.get(auth, uid);
  }

  @Put('users/:id')
  @Auth({ capability: 'UserWrite' })
  @ApiOkResponse({ type: UserDetailsDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number, @Body() dto: UpdateUserDto): Promise<UserDetailsDto> {
    return this.users.update(auth, uid, dto);
  }

  @Delete('users/:id')
  @Auth({ admin: true })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<null> {
    await this.users.delete(auth, uid);
    return null;
  }

  @Get('users/:id/sessions')
  @Auth({ capability: 'UserRead' })
  @ApiOkResponse({ type: SessionListDto })
  sessions(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<SessionListDto> {
    return this.users.sessionsOf(auth, uid);
  }

  @Put('users/:id/pwd')
  @Auth({ capability: 'UserWrite' })
  async changePassword(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number, @Body() dto: ChangePasswordDto): Promise<null> {
    await this.users.changePassword(auth, uid, dto);
    return null;
  }

  @Put('users/:id/lock')
  @Auth({ admin: true })
  async lock(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<null> {
    await this.users.setLocked(auth, uid, true);
    return null;
  }

  @Delete('users/:id/lock')
  @Auth({ admin: true })
  async unlock(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<null> {
    await this.users.setLocked(auth, uid, false);
    return null;
  }

  @Get('users/:id/admin')
  @Auth({ capability: 'UserRead' })
  @ApiOkResponse({ type: AdminStatusDto })
  adminStatus(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<AdminStatusDto> {
    return this.users.adminStatus(auth, uid);
  }

  @Put('users/:id/admin')
  @Auth({ admin: true })
  @ApiOkResponse({ type: AdminStatusDto })
  promote(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<AdminStatusDto> {
    return this.users.setAdmin(auth, uid, true);
  }

  @Delete('users/:id/admin')
  @Auth({ admin: true })
  @ApiOkResponse({ type: AdminStatusDto })
  demote(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<AdminStatusDto> {
    return this.users.setAdmin(auth, uid, false);
  }

  @Get('users/:id/searchgroup')
  @Auth({ capability: 'UserRead' })
  @ApiOkResponse({ type: Number })
  searchGroup(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<number> {
    return this.users.searchGroup(auth, uid);
  }

  @Put('users/:id/searchgroup')
  @Auth({ capability: 'SetSearchGroup' })
  async setSearchGroup(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number, @Body() dto: SearchGroupDto): Promise<null> {
    await this.users.setSearchGroup(auth, uid, dto.GID);
    return null;
  }

  @Delete('users/:id/searchgroup')
  @Auth({ capability: 'SetSearchGroup' })
  async clearSearchGroup(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<null> {
    await this.users.setSearchGroup(auth, uid, 0);
    return null;
  }

  @Get('users/:id/group')
  @Auth({ capability: 'ListGroups' })
  @ApiOkResponse({ type: [GroupDetailsDto] })
  groups(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<GroupDetailsDto[]> {
    return this.users.groups(auth, uid);
  }

  @Post('users/:id/group')
  @HttpCode(200)
  @Auth({ admin: true })
  @ApiOkResponse({ type: [GroupDetailsDto] })
  addGroups(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number, @Body() dto: AddGroupsDto): Promise<GroupDetailsDto[]> {
    return this.users.addGroups(auth, uid, dto);
  }

  @Delete('users/:id/group/:gid')
  @Auth({ admin: true })
  async removeGroup(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number, @Param('gid', IdPipe) gid: number): Promise<null> {
    await this.users.removeGroup(auth, uid, gid);
    return null;
  }
}
