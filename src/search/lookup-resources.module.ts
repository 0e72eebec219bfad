import { Module } from '@nestjs/common';
import { LookupResources } from './lookup-resources';
import { QueryWork } from './query-work';

/**
 * Provides LookupResources and QueryWork to the modules that launch searches (one cache and one set of query workers for all of them).
 * LookupResources reads resources through LOOKUP_RESOURCE_ACCESS, which the resources feature (a layer up, a global module) provides.
 */
@Module({
  providers: [LookupResources, QueryWork],
  exports: [LookupResources, QueryWork],
})
export class LookupResourcesModule {}
