import { Body, Controller, Head, HttpCode, Inject, Post, Put, Req, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Request } from 'express';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { MemoryUploadInterceptor } from '../storage/upload.interceptor';
import { clientAddress, readBody } from './body';
import { IngestLinesForm, IngestLinesResponseDto, IngestResponseDto } from './ingest.dto';
import { IngestService } from './ingest.service';

/** Lines to ingest arrive whole, in memory, limited like a JSON batch. */
const LinesUpload = MemoryUploadInterceptor({ maxSize: (c) => c.maxIngestBatchBytes, setting: 'MAX_INGEST_BATCH_BYTES', fieldSize: 1024 });

@ApiTags('ingest')
@Controller('api/ingest')
export class IngestController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly ingest: IngestService,
  ) {}

  /** Whether the caller may ingest (200; 401/403 otherwise). */
  @Head('test')
  @Auth({ capability: 'Ingest' })
  test(): null {
    return null;
  }

  /** Body `[{TS, Tag, SRC?, Data (base64), Enumerated?}]` (optionally gzip); answers after commit. */
  @Put('json')
  @Auth({ capability: 'Ingest' })
  @ApiBody({ schema: { type: 'array', items: { type: 'object' } } })
  @ApiOkResponse({ type: IngestResponseDto })
  async json(@CurrentAuth() auth: AuthContext, @Req() req: Request): Promise<IngestResponseDto> {
    const body = await readBody(req, this.config.maxIngestBatchBytes, 'MAX_INGEST_BATCH_BYTES');
    return this.ingest.ingestJson(body, clientAddress(req), auth.uid);
  }

  /** Multipart `file` + `tag` (+ `source`, `noparsetimestamp`, `assumelocaltimezone`): one entry per line. */
  @Post('lines')
  @HttpCode(200)
  @Auth({ capability: 'Ingest' })
  @UseInterceptors(LinesUpload)
  @ApiConsumes('multipart/form-data')
  @ApiOkResponse({ type: IngestLinesResponseDto })
  async lines(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Body() form: IngestLinesForm, @UploadedFile() file?: Express.Multer.File): Promise<IngestLinesResponseDto> {
    if (!file) throw refusal('INGEST_FILE_PART_REQUIRED');
    return this.ingest.ingestLines(
      file.buffer,
      { tag: form.tag, source: form.source, noParseTimestamp: form.noparsetimestamp === true, assumeLocalTimezone: form.assumelocaltimezone === true },
      clientAddress(req),
      auth.uid,
    );
  }
}
