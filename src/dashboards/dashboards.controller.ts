import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { IdPipe } from '../common/validation/id.pipe';
import { QueryBooleanPipe } from '../common/validation/validation';
import { DashboardIdPipe, DashboardRef, DashboardRefPipe } from './dashboard-ref.pipe';
import { CreateDashboardDto, DashboardDto, UpdateDashboardDto } from './dashboards.dto';
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
  @ApiQuery({ name: 'admin', required: false, type: Boolean, description: 'Admins: list every dashboard' })
  @ApiOkResponse({ type: [DashboardDto], description: 'Owned, shared through a group, or global; admins with ?admin=true: all' })
  list(@CurrentAuth() auth: AuthContext, @Query('admin', QueryBooleanPipe) admin: boolean | undefined): Promise<DashboardDto[]> {
    return this.dashboards.list(auth, admin);
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
  @ApiOkResponse({
    type: DashboardDto,
    headers: { ETag: { description: 'The stored version; send it back as If-Match on PUT to refuse overwriting a newer save', schema: { type: 'string' } } },
  })
  async get(@CurrentAuth() auth: AuthContext, @Param('id', DashboardRefPipe) ref: DashboardRef, @Res({ passthrough: true }) res: Response): Promise<DashboardDto> {
    const { dashboard, etag } = await this.dashboards.getVersioned(auth, ref);
    res.setHeader('ETag', etag);
    return dashboard;
  }

  @Put('dashboards/:id')
  @Auth({ capability: 'DashboardWrite' })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'The ETag of the GET this update is based on: the update happens only if the dashboard is still at that version (else 412). Without it, the update always happens.',
  })
  @ApiOkResponse({ type: DashboardDto, headers: { ETag: { description: 'The new version', schema: { type: 'string' } } } })
  @ApiResponse({ status: 412, description: 'If-Match names a version the dashboard no longer has; nothing was changed. Body `{"Error": "..."}`' })
  async update(
    @CurrentAuth() auth: AuthContext,
    @Param('id', DashboardRefPipe) ref: DashboardRef,
    @Body() dto: UpdateDashboardDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DashboardDto> {
    const { dashboard, etag } = await this.dashboards.update(auth, ref, dto, ifMatch);
    res.setHeader('ETag', etag);
    return dashboard;
  }

  @Delete('dashboards/:id')
  @Auth({ capability: 'DashboardWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', DashboardIdPipe) ref: DashboardRef): Promise<null> {
    await this.dashboards.delete(auth, ref);
    return null;
  }
}
