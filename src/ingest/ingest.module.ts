import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { memoryStorage } from 'multer';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { IndexerModule } from '../indexer/indexer.module';
import { HecAcksRepository } from './hec-acks.repository';
import { HecAcksService } from './hec-acks.service';
import { HecController } from './hec.controller';
import { HecService } from './hec.service';
import { IngestController } from './ingest.controller';
import { IngestService } from './ingest.service';

/** Ingest APIs: JSON entries, uploaded lines, and the Splunk HEC compatible collector. */
@Module({
  imports: [
    IndexerModule,
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => ({
        storage: memoryStorage(),
        limits: { fileSize: c.maxIngestBatchBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
      }),
    }),
  ],
  controllers: [IngestController, HecController],
  providers: [IngestService, HecService, HecAcksService, HecAcksRepository],
})
export class IngestModule {}
