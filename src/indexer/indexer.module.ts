import { Module } from '@nestjs/common';
import { IndexerPools } from './indexer-pools';
import { IndexerSearchExecutor } from './indexer-search.executor';
import { IndexerStatsQueries } from './indexer-stats.queries';
import { IndexerService } from './indexer.service';
import { IngestMeter } from './ingest-meter';
import { SearchExecutor } from './search-executor';
import { TagsRepository } from './tags.repository';

/**
 * Search storage: indexer databases, the tag map, bulk storage (counted by the ingest meter),
 * retention, the search executor, and the figures the stats APIs report. Depends on no feature.
 */
@Module({
  providers: [IndexerPools, TagsRepository, IngestMeter, IndexerService, IndexerStatsQueries, { provide: SearchExecutor, useClass: IndexerSearchExecutor }],
  exports: [IndexerService, SearchExecutor, IndexerStatsQueries],
})
export class IndexerModule {}
