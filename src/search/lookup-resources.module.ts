import { Module } from '@nestjs/common';
import { ResourcesModule } from '../resources/resources.module';
import { ResourceSearchAccess } from '../resources/resources.search';
import { LOOKUP_RESOURCE_ACCESS, LookupResourceAccess } from './lookup-resource-access';
import { LookupResources } from './lookup-resources';
import { QueryWork } from './query-work';

/**
 * Provides LookupResources and QueryWork to the modules that launch searches (one cache and one set of query workers for all of them).
 * The one place the engine still names the resources feature (a layer up): it binds ResourceSearchAccess to LOOKUP_RESOURCE_ACCESS.
 * Left to do (issue 25): the resources feature provides and exports the token itself, and whoever imports this module imports it with
 * the feature, so that this import goes (eslint.config.mjs `layerExceptions`).
 */
@Module({
  imports: [ResourcesModule],
  providers: [
    LookupResources,
    QueryWork,
    { provide: LOOKUP_RESOURCE_ACCESS, inject: [ResourceSearchAccess], useFactory: (access: ResourceSearchAccess): LookupResourceAccess => access },
  ],
  exports: [LookupResources, QueryWork],
})
export class LookupResourcesModule {}
