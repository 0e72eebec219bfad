import { Module } from '@nestjs/common';
import { IndexerModule } from '../indexer/indexer.module';
import { LookupResourcesModule } from './lookup-resources.module';
import { SearchController } from './search.controller';

/** Search HTTP endpoints on top of the indexer: parse, direct search, tags, module lists. */
@Module({
  imports: [IndexerModule, LookupResourcesModule],
  controllers: [SearchController],
})
export class SearchModule {}
