import { Body, Controller, Delete, Get, HttpCode, Injectable, Param, Patch, PipeTransform, Post, Put, Query, StreamableFile, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiConsumes, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentAuth } from '../identity/auth.decorators';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { SearchTransferService } from './searchctrl-transfer.service';
import {
  AdminQueryDto,
  GlobalDto,
  GroupDto,
  GroupsDto,
  ImportFieldsDto,
  LaunchResponseDto,
  OverviewStatsDto,
  PingDto,
  PingResponseDto,
  RendererQueryDto,
  SearchInfoDto,
  SearchSummaryDto,
  SessionQueryDto,
  StartSearchRequestDto,
} from './searchctrl.dto';
import { SearchCtrlService } from './searchctrl.service';
import { ArchiveUploadInterceptor } from './archive-upload.interceptor';
import { ImportBudgetInterceptor } from './import-budget.interceptor';

/** What renderer pages and downloads of a failed search answer (see search-failure.ts). */
const ApiFailedSearch = () =>
  ApiResponse({ status: 422, description: 'The search failed because of its query or a limit: {"Error": "search failed: <reason>"} (500/503 when the service caused it)' });

/** Search IDs are numeric strings. */
@Injectable()
export class SearchIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!/^\d{1,19}$/.test(value ?? '')) throw refusal('INVALID_SEARCH_ID', String(value).slice(0, 40));
    return value.replace(/^0+(?=\d)/, '');
  }
}

@ApiTags('searchctrl')
@Controller('api/searchctrl')
export class SearchCtrlController {
  constructor(
    private readonly searches: SearchCtrlService,
    private readonly transfer: SearchTransferService,
  ) {}

  @Get()
  @Auth({ capability: 'Search' })
  @ApiOkResponse({ type: [SearchSummaryDto] })
  list(@CurrentAuth() auth: AuthContext, @Query() q: AdminQueryDto): SearchSummaryDto[] {
    return this.searches.list(auth, q.admin ?? false);
  }

  @Get('all')
  @Auth({ admin: true })
  @ApiOkResponse({ type: [SearchSummaryDto] })
  all(@CurrentAuth() auth: AuthContext): SearchSummaryDto[] {
    return this.searches.list(auth, true);
  }

  @Get('details')
  @Auth({ capability: 'Search' })
  @ApiOkResponse({ type: [SearchInfoDto], description: 'Search info of every search the caller may view' })
  allDetails(@CurrentAuth() auth: AuthContext, @Query() q: AdminQueryDto): SearchInfoDto[] {
    return this.searches.listDetails(auth, q.admin ?? false);
  }

  @Post('launch')
  @HttpCode(200)
  @Auth({ capability: 'Search' })
  @ApiOkResponse({ type: LaunchResponseDto })
  launch(@CurrentAuth() auth: AuthContext, @Body() dto: StartSearchRequestDto): Promise<LaunchResponseDto> {
    return this.searches.launch(auth, dto);
  }

  @Post('import')
  @HttpCode(200)
  @Auth({ capability: 'SaveSearch', cookie: true })
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(ImportBudgetInterceptor, ArchiveUploadInterceptor)
  @ApiOkResponse({ type: SearchInfoDto, description: 'The imported (saved) search' })
  async import(@CurrentAuth() auth: AuthContext, @UploadedFile() file: Express.Multer.File | undefined, @Body() fields: ImportFieldsDto): Promise<SearchInfoDto> {
    if (!file) throw refusal('ARCHIVE_FILE_REQUIRED');
    const id = await this.transfer.import(auth, file.path, { gid: fields.GID, batchName: fields.BatchName, batchInfo: fields.BatchInfo });
    return this.searches.info(auth, id);
  }

  @Get(':id')
  @Auth({ capability: 'Search' })
  @ApiOkResponse({ type: [SearchInfoDto], description: 'An array holding one search info object' })
  info(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string): SearchInfoDto[] {
    return [this.searches.info(auth, id)];
  }

  @Get(':id/details')
  @Auth({ capability: 'AttachSearch' })
  @ApiOkResponse({ type: SearchInfoDto })
  details(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string): SearchInfoDto {
    return this.searches.info(auth, id);
  }

  @Get(':id/attach')
  @Auth({ capability: 'AttachSearch' })
  @ApiOkResponse({ type: LaunchResponseDto })
  attach(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string): Promise<LaunchResponseDto> {
    return this.searches.attach(auth, id);
  }

  @Put(':id/ping')
  @Auth({ capability: 'AttachSearch' })
  @ApiOkResponse({ type: PingResponseDto })
  ping(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Query() q: SessionQueryDto, @Body() dto: PingDto): PingResponseDto {
    return this.searches.ping(auth, id, q.sid, dto);
  }

  @Put(':id/detach')
  @Auth({ capability: 'AttachSearch' })
  async detach(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Query() q: SessionQueryDto): Promise<null> {
    await this.searches.detach(auth, id, q.sid);
    return null;
  }

  @Get(':id/stats')
  @Auth({ capability: 'AttachSearch' })
  @ApiOkResponse({ type: OverviewStatsDto })
  stats(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Query() q: SessionQueryDto): OverviewStatsDto {
    return this.searches.stats(auth, id, q.sid);
  }

  @Get(':id/renderer/:renderer')
  @Auth({ capability: 'AttachSearch' })
  @ApiOkResponse({ description: 'Renderer response (product-notes §2.6); at most 10000 entries and RENDER_PAGE_MAX_BYTES of them, AdditionalEntries when more remain' })
  @ApiFailedSearch()
  async renderer(
    @CurrentAuth() auth: AuthContext,
    @Param('id', SearchIdPipe) id: string,
    @Param('renderer') renderer: string,
    @Query() q: RendererQueryDto,
  ): Promise<StreamableFile> {
    return new StreamableFile(await this.searches.renderer(auth, id, renderer, q), { type: 'application/json; charset=utf-8' });
  }

  @Patch(':id/background')
  @Auth({ capability: 'BackgroundSearch' })
  async background(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string): Promise<null> {
    await this.searches.background(auth, id);
    return null;
  }

  @Patch(':id/save')
  @Auth({ capability: 'SaveSearch' })
  async save(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Body() metadata: unknown): Promise<null> {
    await this.searches.save(auth, id, isNoBody(metadata) ? null : metadata);
    return null;
  }

  @Put(':id/stop')
  @Auth({ capability: 'Search' })
  async stop(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string): Promise<null> {
    await this.searches.stop(auth, id);
    return null;
  }

  @Delete(':id')
  @Auth({ capability: 'Search' })
  async delete(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string): Promise<null> {
    await this.searches.delete(auth, id);
    return null;
  }

  @Put(':id/groups')
  @Auth({ capability: 'Search' })
  async groups(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Body() dto: GroupsDto): Promise<null> {
    await this.searches.setGroups(auth, id, dto.GIDs);
    return null;
  }

  @Put(':id/group')
  @Auth({ capability: 'Search' })
  async group(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Body() dto: GroupDto): Promise<null> {
    await this.searches.setGroups(auth, id, dto.GID ? [dto.GID] : []);
    return null;
  }

  @Put(':id/global')
  @Auth({ admin: true })
  async global(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Body() dto: GlobalDto): Promise<null> {
    await this.searches.setGlobal(auth, id, dto.Global);
    return null;
  }

  @Get(':id/download/:format')
  @Auth({ capability: 'Download' })
  @ApiFailedSearch()
  download(@CurrentAuth() auth: AuthContext, @Param('id', SearchIdPipe) id: string, @Param('format') format: string): StreamableFile {
    return this.transfer.download(auth, id, format);
  }
}

/** No body, JSON null, or the `{}` Express leaves when a request had no body: no metadata. */
function isNoBody(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
}
