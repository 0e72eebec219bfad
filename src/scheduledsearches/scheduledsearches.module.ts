import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { LibraryModule } from '../library/library.module';
import { SearchCtrlModule } from '../searchctrl/searchctrl.module';
import { SharingModule } from '../sharing/sharing.module';
import { UsersModule } from '../users/users.module';
import { RunExecutor } from './run-executor';
import { ScheduledSearchEntity, ScheduledSearchRunEntity } from './scheduled-search.entity';
import { ScheduledSearchesController } from './scheduledsearches.controller';
import { ScheduledSearchesRepository } from './scheduledsearches.repository';
import { ScheduledSearchesService } from './scheduledsearches.service';
import { Scheduler, SCHEDULER_CLOCK, systemClock } from './scheduler.service';

/** Scheduled searches: the API, the scheduler (slots queued once in pg-boss) and the runs. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ScheduledSearchEntity, ScheduledSearchRunEntity]),
    UsersModule,
    LibraryModule,
    SearchCtrlModule,
    SharingModule.withGroups(GroupsModule, GroupsService),
  ],
  controllers: [ScheduledSearchesController],
  providers: [ScheduledSearchesRepository, ScheduledSearchesService, RunExecutor, Scheduler, { provide: SCHEDULER_CLOCK, useValue: systemClock }],
  exports: [ScheduledSearchesService, Scheduler],
})
export class ScheduledSearchesModule {}
