import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import * as path from 'node:path';
import { SharingModule } from '../sharing/sharing.module';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { BlobStore } from '../storage/blob-store';
import { ResourceEntity } from './resource.entity';
import { ResourcesController } from './resources.controller';
import { ResourcesRepository } from './resources.repository';
import { ResourceSearchAccess } from './resources.search';
import { RESOURCE_BLOBS, ResourcesService } from './resources.service';

@Module({
  imports: [TypeOrmModule.forFeature([ResourceEntity]), SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [ResourcesController],
  providers: [
    ResourcesRepository,
    ResourcesService,
    ResourceSearchAccess,
    { provide: RESOURCE_BLOBS, useFactory: (c: AppConfig) => new BlobStore(path.join(c.dataDir, 'blobs', 'resources')), inject: [APP_CONFIG] },
  ],
  exports: [ResourcesService, ResourceSearchAccess],
})
export class ResourcesModule {}
