import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SharingModule } from '../sharing/sharing.module';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { UsersModule } from '../users/users.module';
import { LibraryEntryEntity } from './library-entry.entity';
import { LibraryController } from './library.controller';
import { LibraryRepository } from './library.repository';
import { LibraryService } from './library.service';

/** The search library (contract: Search library). */
@Module({
  imports: [TypeOrmModule.forFeature([LibraryEntryEntity]), UsersModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [LibraryController],
  providers: [LibraryRepository, LibraryService],
  exports: [LibraryService],
})
export class LibraryModule {}
