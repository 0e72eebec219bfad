import { Module } from '@nestjs/common';
import { BlockCompaction } from './block-compaction';
import { IndexerPools } from './indexer-pools';
import { IndexerSearchExecutor } from './indexer-search.executor';
import { IndexerStatsQueries } from './indexer-stats.queries';
import { IndexerService } from './indexer.service';
import { IngestMeter } from './ingest-meter';
import { SearchExecutor } from './search-executor';
import { TagsRepository } from './tags.repository';

/**
 * Search storage: indexer databases, the tag map, block storage (counted by the ingest meter),
 * compaction, retention, the search executor, and the figures the stats APIs report. Depends on no feature.
 */
@Module({
  providers: [IndexerPools, TagsRepository, IngestMeter, IndexerService, BlockCompaction, IndexerStatsQueries, { provide: SearchExecutor, useClass: IndexerSearchExecutor }],
  exports: [IndexerService, SearchExecutor, IndexerStatsQueries, BlockCompaction],
})
export class IndexerModule {}
