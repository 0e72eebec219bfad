import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../identity/auth.decorators';
import { IdPipe } from '../common/validation/id.pipe';
import { CreateGroupDto, GroupDetailsDto, UpdateGroupDto } from './groups.dto';
import { GroupsService } from './groups.service';

@ApiTags('groups')
@Controller('api/groups')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @Auth({ capability: 'ListGroups' })
  @ApiOkResponse({ type: [GroupDetailsDto] })
  list(): Promise<GroupDetailsDto[]> {
    return this.groups.list();
  }

  @Post()
  @HttpCode(200)
  @Auth({ admin: true })
  @ApiOkResponse({ type: Number, description: 'The new GID' })
  create(@Body() dto: CreateGroupDto): Promise<number> {
    return this.groups.create(dto);
  }

  @Get(':id')
  @Auth({ capability: 'ListGroups' })
  @ApiOkResponse({ type: GroupDetailsDto })
  get(@Param('id', IdPipe) gid: number): Promise<GroupDetailsDto> {
    return this.groups.get(gid);
  }

  @Put(':id')
  @Auth({ admin: true })
  @ApiOkResponse({ type: GroupDetailsDto })
  update(@Param('id', IdPipe) gid: number, @Body() dto: UpdateGroupDto): Promise<GroupDetailsDto> {
    return this.groups.update(gid, dto);
  }

  @Delete(':id')
  @Auth({ admin: true })
  async delete(@Param('id', IdPipe) gid: number): Promise<null> {
    await this.groups.delete(gid);
    return null;
  }
}
