import { Module } from '@nestjs/common';
import { ResourcesModule } from '../resources/resources.module';
import { LookupResources } from './lookup-resources';

/** Provides LookupResources to the modules that launch searches (one cache for all of them). */
@Module({
  imports: [ResourcesModule],
  providers: [LookupResources],
  exports: [LookupResources],
})
export class LookupResourcesModule {}
