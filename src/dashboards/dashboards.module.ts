import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SharingModule } from '../sharing/sharing.module';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { UsersModule } from '../users/users.module';
import { DashboardEntity } from './dashboard.entity';
import { DashboardsController } from './dashboards.controller';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardsService } from './dashboards.service';

/** Dashboards (contract: Dashboards). */
@Module({
  imports: [TypeOrmModule.forFeature([DashboardEntity]), UsersModule, GroupsModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [DashboardsController],
  providers: [DashboardsRepository, DashboardsService],
  exports: [DashboardsService],
})
export class DashboardsModule {}
