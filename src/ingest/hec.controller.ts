import { applyDecorators, Controller, Get, HttpCode, Inject, Post, Req, UseFilters } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Request } from 'express';
import { Auth, CurrentAuth, Public } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { clientAddress, readBody } from './body';
import { HecAcksService } from './hec-acks.service';
import { HecAckStatusDto, HecHealthDto, HecSuccessDto } from './hec.dto';
import { HecExceptionFilter } from './hec.filter';
import { HecRequestInfo, HecService } from './hec.service';

const MAX_ACK_QUERY_BYTES = 1024 * 1024;

const queryValue = (req: Request, name: string): string | undefined => {
  const v = req.query[name];
  return typeof v === 'string' ? v : undefined;
};

function requestInfo(req: Request): HecRequestInfo {
  const header = req.headers['x-splunk-request-channel'];
  const channel = (typeof header === 'string' && header) || queryValue(req, 'channel') || undefined;
  return {
    client: clientAddress(req),
    channel,
    tag: queryValue(req, 'tag'),
    sourcetype: queryValue(req, 'sourcetype'),
    metadata: { host: queryValue(req, 'host'), source: queryValue(req, 'source'), index: queryValue(req, 'index') },
  };
}

const Channel = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({ name: 'X-Splunk-Request-Channel', required: false, description: 'channel of the ack ID (or `?channel=`)' }),
    ApiQuery({ name: 'channel', required: false, type: String }),
  );

const TagChoice = (): MethodDecorator =>
  applyDecorators(
    ApiQuery({ name: 'tag', required: false, type: String, description: 'tag of every entry' }),
    ApiQuery({ name: 'sourcetype', required: false, type: String, description: 'sourcetype of events that name none' }),
  );

/**
 * Splunk HTTP Event Collector compatible ingest (product-notes §5.4). The global guard checks
 * the Splunk credential (`credential: 'splunk'`: an API token holding `Ingest`, as
 * `Authorization: Splunk <token>` or `?token=`); every answer, the guard's refusals included, is
 * HEC shaped: `{"text", "code"}` (+ `"Error"` on failures; see HecExceptionFilter).
 */
@ApiTags('ingest')
@Controller('services/collector')
@UseFilters(HecExceptionFilter)
export class HecController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hec: HecService,
    private readonly acks: HecAcksService,
  ) {}

  @Get(['health', 'health/1.0'])
  @Public()
  @ApiOkResponse({ type: HecHealthDto })
  health(): HecHealthDto {
    return { text: 'HEC is healthy', code: 17 };
  }

  /** Concatenated JSON events (optionally gzip); a bad one ends the batch (see HecService.events). */
  @Post(['', 'event', 'event/1.0'])
  @HttpCode(200)
  @Auth({ capability: 'Ingest', credential: 'splunk' })
  @Channel()
  @TagChoice()
  @ApiOkResponse({ type: HecSuccessDto })
  async event(@CurrentAuth() auth: AuthContext, @Req() req: Request): Promise<HecSuccessDto> {
    return this.hec.events(auth, requestInfo(req), await readBody(req, this.config.maxIngestBatchBytes, 'MAX_INGEST_BATCH_BYTES'));
  }

  /** One entry per line (optionally gzip). */
  @Post(['raw', 'raw/1.0'])
  @HttpCode(200)
  @Auth({ capability: 'Ingest', credential: 'splunk' })
  @Channel()
  @TagChoice()
  @ApiOkResponse({ type: HecSuccessDto })
  async raw(@CurrentAuth() auth: AuthContext, @Req() req: Request): Promise<HecSuccessDto> {
    return this.hec.raw(auth, requestInfo(req), await readBody(req, this.config.maxIngestBatchBytes, 'MAX_INGEST_BATCH_BYTES'));
  }

  /** `{"acks": [ids]}` -> `{"acks": {id: committed}}`, for the IDs issued to the caller on this channel. */
  @Post('ack')
  @HttpCode(200)
  @Auth({ capability: 'Ingest', credential: 'splunk' })
  @Channel()
  @ApiOkResponse({ type: HecAckStatusDto })
  async ack(@CurrentAuth() auth: AuthContext, @Req() req: Request): Promise<HecAckStatusDto> {
    return { acks: await this.acks.status(auth, requestInfo(req).channel, await readBody(req, MAX_ACK_QUERY_BYTES)) };
  }
}
