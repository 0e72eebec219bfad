import { Module } from '@nestjs/common';
import { LookupResources } from './lookup-resources';
import { QueryWork } from './query-work';
import { QueryMacroExpander } from './query-macros';

/**
 * Provides LookupResources and QueryWork to the modules that launch searches (one cache and one set of query workers for all of them).
 * LookupResources reads resources through LOOKUP_RESOURCE_ACCESS, which the resources feature (a layer up, a global module) provides,
 * and expands macros through QUERY_MACROS, which the macros feature provides the same way.
 */
@Module({
  providers: [LookupResources, QueryWork, QueryMacroExpander],
  exports: [LookupResources, QueryWork, QueryMacroExpander],
})
export class LookupResourcesModule {}
