import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../auth/auth.decorators';
import { AuthContext } from '../auth/auth.types';
import { IdPipe } from '../common/validation/id.pipe';
import { DashboardIdPipe, DashboardRef, DashboardRefPipe } from './dashboard-ref.pipe';
import { CreateDashboardDto, DashboardDto, DashboardListQueryDto, UpdateDashboardDto } from './dashboards.dto';
import { DashboardsService } from './dashboards.service';

@ApiTags('dashboards')
@Controller('api')
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Post('dashboards')
  @HttpCode(200)
  @Auth({ capability: 'DashboardWrite' })
  @ApiOkResponse({ type: Number, description: 'The numeric ID of the new dashboard' })
  create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateDashboardDto): Promise<number> {
    return this.dashboards.create(auth, dto);
  }

  @Get('dashboards')
  @Auth({ capability: 'DashboardRead' })
  @ApiOkResponse({ type: [DashboardDto], description: 'Owned, shared through a group, or global; admins with ?admin=true: all' })
  list(@CurrentAuth() auth: AuthContext, @Query() q: DashboardListQueryDto): Promise<DashboardDto[]> {
    return this.dashboards.list(auth, q.admin);
  }

  @Get('dashboards/all')
  @Auth({ capability: 'DashboardRead' })
  @ApiOkResponse({ type: [DashboardDto], description: 'Admins: every dashboard; others: as GET /api/dashboards' })
  listAll(@CurrentAuth() auth: AuthContext): Promise<DashboardDto[]> {
    return this.dashboards.listAll(auth);
  }

  @Get('users/:uid/dashboards')
  @Auth({ capability: 'DashboardRead' })
  @ApiOkResponse({ type: [DashboardDto] })
  listOfUser(@CurrentAuth() auth: AuthContext, @Param('uid', IdPipe) uid: number): Promise<DashboardDto[]> {
    return this.dashboards.listOfUser(auth, uid);
  }

  @Get('groups/:gid/dashboards')
  @Auth({ capability: 'DashboardRead' })
  @ApiOkResponse({ type: [DashboardDto] })
  listOfGroup(@CurrentAuth() auth: AuthContext, @Param('gid', IdPipe) gid: number): Promise<DashboardDto[]> {
    return this.dashboards.listOfGroup(auth, gid);
  }

  @Get('dashboards/:id')
  @Auth({ capability: 'DashboardRead' })
  @ApiOkResponse({ type: DashboardDto })
  get(@CurrentAuth() auth: AuthContext, @Param('id', DashboardRefPipe) ref: DashboardRef): Promise<DashboardDto> {
    return this.dashboards.get(auth, ref);
  }

  @Put('dashboards/:id')
  @Auth({ capability: 'DashboardWrite' })
  @ApiOkResponse({ type: DashboardDto })
  update(@CurrentAuth() auth: AuthContext, @Param('id', DashboardRefPipe) ref: DashboardRef, @Body() dto: UpdateDashboardDto): Promise<DashboardDto> {
    return this.dashboards.update(auth, ref, dto);
  }

  @Delete('dashboards/:id')
  @Auth({ capability: 'DashboardWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', DashboardIdPipe) ref: DashboardRef): Promise<null> {
    await this.dashboards.delete(auth, ref);
    return null;
  }
}
