import { Module } from '@nestjs/common';
import { ResourcesModule } from '../resources/resources.module';
import { LookupResources } from './lookup-resources';
import { QueryWork } from './query-work';

/** Provides LookupResources and QueryWork to the modules that launch searches (one cache and one set of query workers for all of them). */
@Module({
  imports: [ResourcesModule],
  providers: [LookupResources, QueryWork],
  exports: [LookupResources, QueryWork],
})
export class LookupResourcesModule {}
