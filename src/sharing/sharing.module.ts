import { DynamicModule, Module, Type } from '@nestjs/common';
import { GROUP_DIRECTORY, GroupDirectory, GroupSharing } from './group-sharing';

/**
 * Access helpers that read the database: the group check of every shareable feature. The
 * groups live a layer up, so the feature that imports this module names the module and service
 * that know them (`SharingModule.withGroups(GroupsModule, GroupsService)`).
 */
@Module({})
export class SharingModule {
  static withGroups(groupsModule: Type, directory: Type<GroupDirectory>): DynamicModule {
    return {
      module: SharingModule,
      imports: [groupsModule],
      providers: [GroupSharing, { provide: GROUP_DIRECTORY, useExisting: directory }],
      exports: [GroupSharing],
    };
  }
}
