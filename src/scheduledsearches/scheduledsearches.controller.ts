import { Body, Controller, Delete, Get, HttpCode, Param, PipeTransform, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { IdPipe, isUuid } from '../common/validation/id.pipe';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import {
  CreateScheduledSearchDto,
  NextRunsDto,
  NextRunsQueryDto,
  RunsQueryDto,
  ScheduledSearchDto,
  ScheduledSearchQueryDto,
  ScheduledSearchRunDto,
  UpdateScheduledSearchDto,
} from './scheduledsearches.dto';
import { ScheduledSearchesService } from './scheduledsearches.service';

/** A scheduled search's ID or GUID (the product fetches by either); anything else is a 400. */
class ScheduledRefPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (isUuid(value)) return value.toLowerCase();
    return String(new IdPipe().transform(value));
  }
}

/** Scheduled searches: the product's paths (client/urls.go SCHEDULED_SEARCH_*), plus runs and next-run times. */
@ApiTags('scheduledsearches')
@Controller('api/scheduledsearches')
export class ScheduledSearchesController {
  constructor(private readonly scheduled: ScheduledSearchesService) {}

  @Get()
  @Auth({ capability: 'ScheduleRead' })
  @ApiOkResponse({ type: [ScheduledSearchDto], description: 'Own, group-shared and global scheduled searches; ?admin=true (admins): all' })
  list(@CurrentAuth() auth: AuthContext, @Query() q: ScheduledSearchQueryDto): Promise<ScheduledSearchDto[]> {
    return this.scheduled.list(auth, q.admin);
  }

  @Get('all')
  @Auth({ admin: true })
  @ApiOkResponse({ type: [ScheduledSearchDto] })
  all(@CurrentAuth() auth: AuthContext): Promise<ScheduledSearchDto[]> {
    return this.scheduled.listAll(auth);
  }

  @Get('nextruns')
  @Auth({ capability: 'ScheduleRead' })
  @ApiOkResponse({ type: NextRunsDto, description: 'The next slots of a schedule (400 for one the service would refuse)' })
  nextRuns(@Query() q: NextRunsQueryDto): NextRunsDto {
    return this.scheduled.nextRuns(q.Schedule, q.Timezone, q.count);
  }

  @Get('user/:id')
  @Auth({ capability: 'ScheduleRead' })
  @ApiOkResponse({ type: [ScheduledSearchDto], description: "A user's own scheduled searches (admins, or the user)" })
  ofUser(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<ScheduledSearchDto[]> {
    return this.scheduled.listOfUser(auth, uid);
  }

  @Delete('user/:id')
  @Auth({ admin: true })
  @ApiOkResponse({ description: 'null' })
  async deleteOfUser(@CurrentAuth() auth: AuthContext, @Param('id', IdPipe) uid: number): Promise<null> {
    await this.scheduled.deleteOfUser(auth, uid);
    return null;
  }

  @Post()
  @HttpCode(200)
  @Auth({ capability: 'ScheduleWrite' })
  @ApiOkResponse({ type: Number, description: 'The new scheduled search ID' })
  create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateScheduledSearchDto): Promise<number> {
    return this.scheduled.create(auth, dto);
  }

  @Get(':id')
  @Auth({ capability: 'ScheduleRead' })
  @ApiOkResponse({ type: ScheduledSearchDto, description: 'By ID or GUID' })
  get(@CurrentAuth() auth: AuthContext, @Param('id', ScheduledRefPipe) id: string): Promise<ScheduledSearchDto> {
    return this.scheduled.get(auth, id);
  }

  @Get(':id/runs')
  @Auth({ capability: 'ScheduleRead' })
  @ApiOkResponse({ type: [ScheduledSearchRunDto], description: 'Its runs, the latest slot first' })
  runs(@CurrentAuth() auth: AuthContext, @Param('id', ScheduledRefPipe) id: string, @Query() q: RunsQueryDto): Promise<ScheduledSearchRunDto[]> {
    return this.scheduled.runs(auth, id, q.limit);
  }

  @Put(':id')
  @Auth({ capability: 'ScheduleWrite' })
  @ApiOkResponse({ type: ScheduledSearchDto, description: 'Absent or null fields keep their value; OneShot: true runs it once as soon as possible' })
  update(@CurrentAuth() auth: AuthContext, @Param('id', ScheduledRefPipe) id: string, @Body() dto: UpdateScheduledSearchDto): Promise<ScheduledSearchDto> {
    return this.scheduled.update(auth, id, dto);
  }

  @Delete(':id/error')
  @Auth({ capability: 'ScheduleWrite' })
  @ApiOkResponse({ description: 'null' })
  async clearError(@CurrentAuth() auth: AuthContext, @Param('id', ScheduledRefPipe) id: string): Promise<null> {
    await this.scheduled.clearError(auth, id);
    return null;
  }

  @Delete(':id/state')
  @Auth({ capability: 'ScheduleWrite' })
  @ApiOkResponse({ description: 'null; clears LastError (scheduled searches keep no persistent maps here)' })
  async clearState(@CurrentAuth() auth: AuthContext, @Param('id', ScheduledRefPipe) id: string): Promise<null> {
    await this.scheduled.clearError(auth, id);
    return null;
  }

  @Delete(':id')
  @Auth({ capability: 'ScheduleWrite' })
  @ApiOkResponse({ description: 'null' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', ScheduledRefPipe) id: string): Promise<null> {
    await this.scheduled.delete(auth, id);
    return null;
  }
}
