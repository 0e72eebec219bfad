import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import * as path from 'node:path';
import { SharingModule } from '../sharing/sharing.module';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { LOOKUP_RESOURCE_ACCESS } from '../search/lookup-resource-access';
import { BlobStore } from '../storage/blob-store';
import { ResourceEntity } from './resource.entity';
import { ResourcesController } from './resources.controller';
import { ResourcesRepository } from './resources.repository';
import { ResourceSearchAccess } from './resources.search';
import { RESOURCE_BLOBS, ResourcesService } from './resources.service';

/**
 * Resources. Global for one reason: the search engine (a layer below) reads lookup tables through
 * LOOKUP_RESOURCE_ACCESS, an interface of its own, which this feature provides for every module that
 * launches searches without the engine naming it.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([ResourceEntity]), SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [ResourcesController],
  providers: [
    ResourcesRepository,
    ResourcesService,
    ResourceSearchAccess,
    { provide: LOOKUP_RESOURCE_ACCESS, useExisting: ResourceSearchAccess },
    { provide: RESOURCE_BLOBS, useFactory: (c: AppConfig) => new BlobStore(path.join(c.dataDir, 'blobs', 'resources')), inject: [APP_CONFIG] },
  ],
  exports: [ResourcesService, ResourceSearchAccess, LOOKUP_RESOURCE_ACCESS],
})
export class ResourcesModule {}
