import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { QUERY_MACROS } from '../search/query-macros';
import { SharingModule } from '../sharing/sharing.module';
import { UsersModule } from '../users/users.module';
import { MacroEntity } from './macro.entity';
import { MacrosController } from './macros.controller';
import { MacrosRepository } from './macros.repository';
import { MacrosService } from './macros.service';

/**
 * Search macros. Global for one reason: the search engine (a layer below) expands `$NAME` through
 * QUERY_MACROS, an interface of its own, which this feature provides to every module that reads
 * queries without the engine naming it (as resources provide LOOKUP_RESOURCE_ACCESS).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([MacroEntity]), UsersModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [MacrosController],
  providers: [MacrosRepository, MacrosService, { provide: QUERY_MACROS, useExisting: MacrosService }],
  exports: [MacrosService, QUERY_MACROS],
})
export class MacrosModule {}
