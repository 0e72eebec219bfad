import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { IdPipe } from '../common/validation/id.pipe';
import { UserDetailsDto } from './users.dto';
import { UsersService } from './users.service';

/** The members of a group: memberships are the users feature's (groups depend on no feature). */
@ApiTags('groups')
@Controller('api/groups')
export class GroupMembersController {
  constructor(private readonly users: UsersService) {}

  @Get(':id/members')
  @Auth({ capability: 'ListGroupMembers' })
  @ApiOkResponse({ type: [UserDetailsDto] })
  members(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) gid: number): Promise<UserDetailsDto[]> {
    return this.users.membersOf(auth, gid);
  }
}
