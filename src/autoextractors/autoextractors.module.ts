import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { QUERY_AUTOEXTRACTORS } from '../search/query-autoextractors';
import { SharingModule } from '../sharing/sharing.module';
import { UsersModule } from '../users/users.module';
import { AutoextractorEntity } from './autoextractor.entity';
import { AutoextractorsController } from './autoextractors.controller';
import { AutoextractorsRepository } from './autoextractors.repository';
import { AutoextractorsService } from './autoextractors.service';

/**
 * Autoextractors. Global for one reason: the search engine (a layer below) reads the `ax`
 * definitions through QUERY_AUTOEXTRACTORS, an interface of its own, which this feature provides
 * to every module that compiles queries without the engine naming it (as macros provide QUERY_MACROS).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AutoextractorEntity]), UsersModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [AutoextractorsController],
  providers: [AutoextractorsRepository, AutoextractorsService, { provide: QUERY_AUTOEXTRACTORS, useExisting: AutoextractorsService }],
  exports: [AutoextractorsService, QUERY_AUTOEXTRACTORS],
})
export class AutoextractorsModule {}
