import { Module } from '@nestjs/common';
import { IndexerModule } from '../indexer/indexer.module';
import { StatsController } from './stats.controller';
import { StatsService } from './stats.service';

/** Status APIs (and the stats websocket's figures): what the indexers report, shaped as the product's maps. */
@Module({
  imports: [IndexerModule],
  controllers: [StatsController],
  providers: [StatsService],
  exports: [StatsService],
})
export class StatsModule {}
