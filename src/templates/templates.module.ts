import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../groups/groups.module';
import { GroupsService } from '../groups/groups.service';
import { SharingModule } from '../sharing/sharing.module';
import { UsersModule } from '../users/users.module';
import { TemplateEntity } from './template.entity';
import { TemplatesController } from './templates.controller';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';

/** Search templates: queries with variables, filled by src/query/templates.ts and launched as any query. */
@Module({
  imports: [TypeOrmModule.forFeature([TemplateEntity]), UsersModule, SharingModule.withGroups(GroupsModule, GroupsService)],
  controllers: [TemplatesController],
  providers: [TemplatesRepository, TemplatesService],
  exports: [TemplatesService],
})
export class TemplatesModule {}
