import { Global, Module } from '@nestjs/common';
import { IndexerModule } from '../indexer/indexer.module';
import { IngestMeter } from './ingest-meter';
import { StatsController } from './stats.controller';
import { StatsService } from './stats.service';

/** Global so that the indexer can record ingest into the meter without an import cycle. */
@Global()
@Module({
  imports: [IndexerModule],
  controllers: [StatsController],
  providers: [StatsService, IngestMeter],
  exports: [StatsService, IngestMeter],
})
export class StatsModule {}
