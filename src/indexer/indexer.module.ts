import { Logger, Module, OnModuleInit } from '@nestjs/common';
import { BlockCompaction } from './block-compaction';
import { useLz4Module } from './block-codec';
import { IndexerPools } from './indexer-pools';
import { IndexerSearchExecutor } from './indexer-search.executor';
import { IndexerStatsQueries } from './indexer-stats.queries';
import { IndexerService } from './indexer.service';
import { IngestMeter } from './ingest-meter';
import { loadLz4Module } from './lz4-wasm';
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
export class IndexerModule implements OnModuleInit {
  /** Blocks are decoded by the WebAssembly decoder (lz4-wasm.ts) here and in every scan worker started from now on. */
  async onModuleInit(): Promise<void> {
    try {
      useLz4Module(await loadLz4Module());
    } catch (err) {
      new Logger(IndexerModule.name).warn({ err }, 'the WebAssembly LZ4 decoder did not load: blocks are decoded by lz4-napi');
    }
  }
}
