import { Module } from '@nestjs/common';
import { IndexerModule } from '../indexer/indexer.module';
import { HecAcksRepository } from './hec-acks.repository';
import { HecAcksService } from './hec-acks.service';
import { HecController } from './hec.controller';
import { HecService } from './hec.service';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';

/** Ingest APIs: JSON entries, uploaded lines, and the Splunk HEC compatible collector. */
@Module({
  imports: [IndexerModule],
  controllers: [IngestController, HecController],
  providers: [IngestService, HecService, HecAcksService, HecAcksRepository],
})
export class IngestModule {}
