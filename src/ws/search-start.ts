/**
 * The websocket `search` request (product-notes §2.3, §2.5): validate a StartSearchRequest, answer a
 * StartSearchResponse with a reserved search ID, and launch it through SearchCtrlService once ACK'd.
 */
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AuthContext } from '../auth/auth.types';
import { badRequest, forbidden } from '../common/errors/app-error';
import { describeQuery } from '../query';
import { StartSearchRequestDto } from '../searchctrl/searchctrl.dto';
import { SearchCtrlService } from '../searchctrl/searchctrl.service';
import { parseTime } from '../searchctrl/search-time';

const DEFAULT_RANGE_MS = 3600_000;

export interface PreparedSearch {
  id: string;
  /** The request with its time range resolved, so the launch runs exactly the announced range. */
  req: StartSearchRequestDto;
  response: Record<string, unknown>;
}

/** Throws a 400 AppError naming the first invalid field. */
export async function validateStartRequest(data: unknown): Promise<StartSearchRequestDto> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw badRequest('data must be a StartSearchRequest object');
  const dto = plainToInstance(StartSearchRequestDto, data);
  const errors = await validate(dto, { whitelist: true });
  if (errors.length) {
    const first = errors[0];
    throw badRequest(Object.values(first.constraints ?? {})[0] ?? `${first.property} is invalid`);
  }
  return dto;
}

/** Checks what the launch will check (query, range, sharing) and builds the StartSearchResponse. */
export async function prepareSearch(svc: SearchCtrlService, auth: AuthContext, dto: StartSearchRequestDto, subproto: string): Promise<PreparedSearch> {
  const end = parseTime(dto.SearchEnd, 'SearchEnd') ?? new Date();
  const start = parseTime(dto.SearchStart, 'SearchStart') ?? new Date(end.getTime() - DEFAULT_RANGE_MS);
  if (start.getTime() > end.getTime()) throw badRequest('SearchStart must not be after SearchEnd');
  const { compiled } = await svc.lookups.prepare(auth, dto.SearchString, { start, end });
  const gids = await svc.sharingGroups(auth, dto.GIDs);
  if (dto.Global && !auth.isAdmin) throw forbidden('Only admins may set Global');
  const parsed = compiled.parsed;
  const hints = describeQuery(dto.SearchString);
  const id = svc.registry.newId();
  const response: Record<string, unknown> = {
    RawQuery: dto.SearchString,
    SearchString: parsed.effectiveQuery,
    RenderModule: compiled.renderModule,
    RenderCmd: [parsed.renderer.name, ...parsed.renderer.args.map((a) => (a.quoted ? JSON.stringify(a.value) : a.value))].join(' '),
    OutputSearchSubproto: subproto,
    SearchID: id,
    SearchStartRange: compiled.start.toISOString(),
    SearchEndRange: compiled.end.toISOString(),
    Background: dto.Background ?? false,
    NonTemporal: dto.NonTemporal ?? false,
    CollapsingIndex: compiled.collapsingIndex,
    Metadata: dto.Metadata ?? null,
    LaunchInfo: dto.LaunchInfo ?? null,
    QueryTimeSpecified: compiled.queryTimeSpecified,
    TimeZoomDisabled: hints.TimeZoomDisabled,
    Tags: hints.Tags,
    ModuleHints: hints.ModuleHints,
    RenderDownloadFormats: [...compiled.downloadFormats],
    GIDs: gids,
    Global: dto.Global ?? false,
  };
  if (dto.Addendum !== undefined) response.Addendum = dto.Addendum;
  const req = Object.assign(new StartSearchRequestDto(), dto, { SearchStart: start.toISOString(), SearchEnd: end.toISOString(), GIDs: gids });
  return { id, req, response };
}
