import { Module } from '@nestjs/common';
import { LookupResources } from './lookup-resources';
import { QueryWork } from './query-work';
import { QueryMacroExpander } from './query-macros';
import { QueryAutoextractorSource } from './query-autoextractors';

/**
 * Provides LookupResources and QueryWork to the modules that launch searches (one cache and one set of query workers for all of them).
 * LookupResources reads resources through LOOKUP_RESOURCE_ACCESS, which the resources feature (a layer up, a global module) provides,
 * expands macros through QUERY_MACROS and reads `ax` definitions through QUERY_AUTOEXTRACTORS, which those features provide the same way.
 */
@Module({
  providers: [LookupResources, QueryWork, QueryMacroExpander, QueryAutoextractorSource],
  exports: [LookupResources, QueryWork, QueryMacroExpander, QueryAutoextractorSource],
})
export class LookupResourcesModule {}
