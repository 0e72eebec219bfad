import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupEntity, GroupMemberEntity } from './group.entity';
import { GroupsController } from './groups.controller';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';

/** Groups (contract: Users and groups). Depends on no other feature; users and shareable features use GroupsService. */
@Module({
  imports: [TypeOrmModule.forFeature([GroupEntity, GroupMemberEntity])],
  controllers: [GroupsController],
  providers: [GroupsRepository, GroupsService],
  exports: [GroupsService],
})
export class GroupsModule {}
