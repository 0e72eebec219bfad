import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../auth/auth.decorators';
import { AuthContext } from '../auth/auth.types';
import { IdPipe } from '../common/validation/id.pipe';
import { SessionListDto } from './sessions.dto';
import { SessionsService } from './sessions.service';

@ApiTags('users')
@Controller('api/users')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get(':id/sessions')
  @Auth({ capability: 'UserRead' })
  @ApiOkResponse({ type: SessionListDto })
  list(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<SessionListDto> {
    return this.sessions.list(auth, uid);
  }
}
