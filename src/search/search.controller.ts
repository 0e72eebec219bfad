import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { IndexerService } from '../indexer/indexer.service';
import { SearchExecutor, SearchSink } from '../indexer/search-executor';
import { isWorkerEncoding, WorkerEncoding } from '../indexer/entry-encoding';
import { renderModuleInfos, RenderModuleInfo, searchModuleInfos, SearchModuleInfo, streamsEntries } from '../query';
import { EntryStreamWriter } from './entry-stream';
import { LookupResources } from './lookup-resources';
import { formatResult } from './search.format';
import { param, queryParam, rangeParams, stringParam } from './search.params';

/** What a direct search can answer in (an archive is a persistent search's download). */
const FORMATS = ['json', 'csv', 'text'];

@ApiTags('search')
@Controller('api')
export class SearchController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: SearchExecutor,
    private readonly indexer: IndexerService,
    private readonly lookups: LookupResources,
  ) {}

  /** ParseSearchResponse; 200 with GoodQuery false and ModuleIndex for a bad query. */
  @Post('parse')
  @HttpCode(200)
  @Auth({ capability: 'Search' })
  @ApiHeader({ name: 'query', required: false })
  @ApiQuery({ name: 'query', required: false })
  @ApiOkResponse({ description: 'ParseSearchResponse: Sequence, then the description of the query' })
  async parse(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Res() res: Response): Promise<void> {
    const seq = param(req, 'sequence', 'Sequence') ?? 0;
    const sequence = typeof seq === 'string' && /^\d{1,15}$/.test(seq) ? Number(seq) : seq;
    if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 0) throw refusal('INVALID_SEQUENCE');
    // Macros expanded for the caller, then described (and written as JSON) in a query worker, one at a time per user (QueryWork): never on the event loop.
    const description = await this.lookups.describeJson(auth, queryParam(req));
    res
      .status(200)
      .type('application/json')
      .send(`{"Sequence":${sequence},${description.slice(1)}`);
  }

  /** Runs a whole query and answers with the finished result in `format` (json, csv or text). */
  @Post('search/direct')
  @HttpCode(200)
  @Auth({ capability: 'Search' })
  @ApiHeader({ name: 'query', required: false })
  @ApiHeader({ name: 'format', required: false, description: 'json (default), csv or text' })
  @ApiHeader({ name: 'duration', required: false, description: 'Go duration, e.g. 1h (or start and end, RFC3339)' })
  async direct(@CurrentAuth() auth: AuthContext, @Req() req: Request, @Res() res: Response): Promise<void> {
    const query = queryParam(req);
    const format = (stringParam(req, 'format', 'Format', 32) ?? 'json').toLowerCase();
    if (!FORMATS.includes(format)) throw refusal('UNKNOWN_FORMAT', format);
    const preview = param(req, 'preview', 'Preview');
    if (preview !== undefined && typeof preview !== 'boolean' && !/^(true|false|1|0)$/i.test(String(preview))) throw refusal('INVALID_PREVIEW');
    const now = new Date();
    const range = rangeParams(req, now);
    // Admitted first (429 when the caller's searches fill their slots and queue), then compiled.
    this.executor.admit(auth.uid);
    const { search, resources } = await this.lookups.prepare(auth, query, range, now);
    const compiled = search.compiled;
    const formats: string[] = compiled.downloadFormats;
    if (!formats.includes(format)) {
      throw refusal('FORMAT_NOT_SUPPORTED', format, compiled.renderModule, formats.filter((f) => FORMATS.includes(f)).join(', '));
    }
    const controller = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) controller.abort();
    };
    res.on('close', onClose);
    const run = (sink: SearchSink, retainEntries: boolean, encode?: WorkerEncoding) =>
      this.executor.runCompiled(search, sink, { signal: controller.signal, timeoutMs: this.config.searchTimeoutMs, retainEntries, owner: auth.uid, encode, ...resources });
    try {
      // Entries (text, raw) stream to the client; summaries (table, chart, ... or a condensing
      // module's result) are bounded by the merge worker's memory and are sent whole.
      if (!compiled.streaming || !streamsEntries(compiled.parsed.renderer.def.kind)) {
        const { result } = await run({ entries: () => undefined }, true);
        const out = formatResult(result, format, compiled);
        res.status(200).type(out.contentType).send(out.body);
        return;
      }
      const writer = new EntryStreamWriter(res, format, compiled);
      try {
        await run({ entries: (batch) => writer.write(batch), encoded: (batch) => writer.writeEncoded(batch) }, false, isWorkerEncoding(format) ? format : undefined);
      } catch (err) {
        if (!writer.hasStarted) throw err;
        // The 200 is out: a failure can only cut the answer off, so it is not taken for complete.
        res.destroy(err as Error);
        return;
      }
      writer.end();
    } finally {
      res.off('close', onClose);
    }
  }

  @Get('tags')
  @Auth({ capability: 'Search' })
  @ApiOkResponse({ type: [String] })
  tags(): Promise<string[]> {
    return this.indexer.tags();
  }

  @Get('info/searchmodules')
  @Auth({ capability: 'Search' })
  searchModules(): SearchModuleInfo[] {
    return searchModuleInfos();
  }

  @Get('info/rendermodules')
  @Auth({ capability: 'Search' })
  renderModules(): RenderModuleInfo[] {
    return renderModuleInfos();
  }
}
