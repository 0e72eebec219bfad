import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { GroupSharing } from './group-sharing';

/** Access helpers that read the database: the group check of every shareable feature. */
@Module({
  imports: [GroupsModule],
  providers: [GroupSharing],
  exports: [GroupSharing],
})
export class SharingModule {}
