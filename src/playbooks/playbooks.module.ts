import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { SharingModule } from '../sharing/sharing.module';
import { UsersModule } from '../users/users.module';
import { PlaybookEntity } from './playbook.entity';
import { PlaybooksController } from './playbooks.controller';
import { PlaybooksRepository } from './playbooks.repository';
import { PlaybooksService } from './playbooks.service';

/** Playbooks (issue 26): markdown notes with embedded queries, shared like every owned object. */
@Module({
  imports: [TypeOrmModule.forFeature([PlaybookEntity]), UsersModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [PlaybooksController],
  providers: [PlaybooksRepository, PlaybooksService],
})
export class PlaybooksModule {}
