import { Module } from '@nestjs/common';
import { IndexerPools } from './indexer-pools';
import { IndexerSearchExecutor } from './indexer-search.executor';
import { IndexerService } from './indexer.service';
import { SearchExecutor } from './search-executor';
import { TagsRepository } from './tags.repository';

/** Search storage: indexer databases, the tag map, bulk storage, retention and the search executor. */
@Module({
  providers: [IndexerPools, TagsRepository, IndexerService, { provide: SearchExecutor, useClass: IndexerSearchExecutor }],
  exports: [IndexerService, SearchExecutor, IndexerPools],
})
export class IndexerModule {}
