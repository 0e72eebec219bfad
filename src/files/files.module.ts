import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import * as path from 'node:path';
import { SharingModule } from '../sharing/sharing.module';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { BlobStore } from '../storage/blob-store';
import { UsersModule } from '../users/users.module';
import { FilesController } from './files.controller';
import { FilesRepository } from './files.repository';
import { FILE_BLOBS, FilesService } from './files.service';
import { UserFileEntity } from './user-file.entity';

@Module({
  imports: [TypeOrmModule.forFeature([UserFileEntity]), UsersModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [FilesController],
  providers: [FilesRepository, FilesService, { provide: FILE_BLOBS, useFactory: (c: AppConfig) => new BlobStore(path.join(c.dataDir, 'blobs', 'files')), inject: [APP_CONFIG] }],
  exports: [FilesService],
})
export class FilesModule {}
