/**
 * The websocket `search` request (product-notes §2.3, §2.5): validate a StartSearchRequest, prepare
 * its launch (SearchCtrlService.prepare, as REST does) and answer a StartSearchResponse announcing
 * its ID and range; the client's ACK starts exactly that launch.
 */
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';
import { describeQuery } from '../query';
import { LaunchPlan } from '../searchctrl/search.model';
import { StartSearchRequestDto } from '../searchctrl/searchctrl.dto';
import { SearchCtrlService } from '../searchctrl/searchctrl.service';

export interface AnnouncedSearch {
  /**
   * The launch without its lookup tables: many may wait (WS_PENDING_SEARCHES_PER_*), so the tables are read
   * again at the ACK (from the shared cache), with the caller's rights then, as its groups are.
   */
  plan: LaunchPlan;
  response: Record<string, unknown>;
}

/** class-validator's type checks, named first when a field fails one. */
const TYPE_CHECKS = new Set(['isString', 'isBoolean', 'isInt', 'isNumber', 'isArray', 'isObject']);

/** Throws a 400 AppError naming the first invalid field. */
export async function validateStartRequest(data: unknown): Promise<StartSearchRequestDto> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw refusal('WS_START_INVALID');
  const dto = plainToInstance(StartSearchRequestDto, data);
  const errors = await validate(dto, { whitelist: true });
  if (errors.length) {
    // One problem per frame: the first field's type, if that is what is wrong ("must be a string"),
    // before its other rules (a number sent as SearchString is not "longer than 65536 characters").
    const constraints = errors[0].constraints ?? {};
    const key = Object.keys(constraints).find((k) => TYPE_CHECKS.has(k)) ?? Object.keys(constraints)[0];
    throw refusal('WS_START_FIELD_INVALID', key === undefined ? `${errors[0].property} is invalid` : constraints[key]);
  }
  return dto;
}

/** Prepares the launch (query, range, sharing) and builds the StartSearchResponse announcing it. */
export async function announceSearch(svc: SearchCtrlService, auth: AuthContext, dto: StartSearchRequestDto, subproto: string): Promise<AnnouncedSearch> {
  const { resources: _tables, ...plan } = await svc.prepare(auth, dto);
  const compiled = plan.search.compiled;
  // The hints of the query that runs: with its macros expanded (RawQuery stays what the client sent) and its `ax` definitions.
  const hints = describeQuery(compiled.parsed.rawQuery, { autoextractors: plan.search.autoextractors });
  const response: Record<string, unknown> = {
    RawQuery: dto.SearchString,
    SearchString: compiled.parsed.effectiveQuery,
    RenderModule: compiled.renderModule,
    RenderCmd: plan.renderCmd,
    OutputSearchSubproto: subproto,
    SearchID: plan.id,
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
    GIDs: plan.gids,
    Global: plan.global,
  };
  if (dto.Addendum !== undefined) response.Addendum = dto.Addendum;
  return { plan, response };
}
