/** Wire shapes of a search (contract "Search summary", "Search info"; product-notes §2.4, §2.7). */
import { formatTs, queryTimeZoomDisabled } from '../query';
import { OverviewStatsDto, SearchInfoDto, SearchSummaryDto } from './searchctrl.dto';
import { entryCount, LiveSearch } from './search.model';
import { stateString } from './search-state';

export const ZERO_TIME = '0001-01-01T00:00:00Z';
const NOT_IMPORTED = { Imported: false, Time: ZERO_TIME, BatchName: '', BatchInfo: '' };

/** TimeZoomDisabled of each search's query, parsed once (the query never changes). */
const timeZoom = new WeakMap<LiveSearch, boolean>();

/** The rule of POST /api/parse (query/describe.ts), so SearchInfo and parse agree. */
function timeZoomDisabled(s: LiveSearch): boolean {
  if (s.timeZoomDisabled !== undefined) return s.timeZoomDisabled;
  let v = timeZoom.get(s);
  if (v === undefined) timeZoom.set(s, (v = queryTimeZoomDisabled(s.effectiveQuery)));
  return v;
}

function duration(s: LiveSearch): string {
  const ms = (s.finishedAt ?? new Date()).getTime() - s.started.getTime();
  return `${Math.max(0, ms)}ms`;
}

export function toSearchInfo(s: LiveSearch): SearchInfoDto {
  const info: SearchInfoDto = {
    ID: s.id,
    UID: s.uid,
    GID: s.gids[0] ?? 0,
    GIDs: [...s.gids],
    Global: s.global,
    UserQuery: s.userQuery,
    EffectiveQuery: s.effectiveQuery,
    StartRange: s.start.toISOString(),
    EndRange: s.end.toISOString(),
    Descending: true,
    Started: s.started.toISOString(),
    Finished: s.finishedAt ? s.finishedAt.toISOString() : ZERO_TIME,
    LastUpdate: (s.finishedAt ?? new Date()).toISOString(),
    Duration: duration(s),
    StoreSize: s.store.storeSize,
    IndexSize: s.store.indexSize,
    ItemCount: entryCount(s),
    TimeZoomDisabled: timeZoomDisabled(s),
    QueryTimeSpecified: s.queryTimeSpecified,
    RenderDownloadFormats: [...s.downloadFormats],
    RenderModule: s.renderModule,
    Name: s.name,
    CollapsingIndex: s.collapsingIndex,
    NoHistory: s.noHistory,
    Background: s.flags.backgrounded,
    MinZoomWindow: 1,
    Tags: [],
    Preview: s.preview,
    State: stateString(s.flags),
    LaunchInfo: s.launchInfo ?? null,
  };
  if (s.metadata !== undefined && s.metadata !== null) info.Metadata = s.metadata;
  if (s.saveMetadata !== undefined && s.saveMetadata !== null) info.SaveMetadata = s.saveMetadata;
  if (s.import) info.Import = s.import;
  if (s.failure) info.Error = s.failure.reason;
  return info;
}

export function toSearchSummary(s: LiveSearch): SearchSummaryDto {
  const out: SearchSummaryDto = {
    ID: s.id,
    UID: s.uid,
    GID: s.gids[0] ?? 0,
    GIDs: [...s.gids],
    Global: s.global,
    State: stateString(s.flags),
    AttachedClients: s.flags.clients,
    StoredData: s.store.storeSize + s.store.indexSize,
    UserQuery: s.userQuery,
    EffectiveQuery: s.effectiveQuery,
    StartRange: s.start.toISOString(),
    EndRange: s.end.toISOString(),
    NoHistory: s.noHistory,
    Import: s.import ?? NOT_IMPORTED,
    LaunchInfo: s.launchInfo ?? null,
  };
  if (s.failure) out.Error = s.failure.reason;
  return out;
}

export function limitDroppedRange(s: LiveSearch): { StartTS: string; EndTS: string } {
  const d = s.store.droppedRange;
  return d ? { StartTS: formatTs(d.start), EndTS: formatTs(d.end) } : { StartTS: ZERO_TIME, EndTS: ZERO_TIME };
}

/** The product's Message list: the failure (error), else the run's warnings (warn), numbered from 1. */
function searchMessages(s: LiveSearch): Array<{ ID: number; Severity: 'error' | 'warn'; Value: string }> {
  if (s.failure) return [{ ID: 1, Severity: 'error', Value: s.failure.reason }];
  return (s.warnings ?? []).map((Value, i) => ({ ID: i + 1, Severity: 'warn', Value }));
}

export function toOverviewStats(s: LiveSearch): OverviewStatsDto {
  const stats: OverviewStatsDto = {
    // How far the scans have read, newest first: from the range's end down to its start when done.
    SearchPosition: (s.flags.finished ? s.start : (s.progress.position ?? s.end)).toISOString(),
    Finished: s.flags.finished,
    OverLimit: s.store.overLimit,
    LimitDroppedRange: limitDroppedRange(s),
    EntryCountValid: true,
    EntryCount: entryCount(s),
    EntriesScanned: s.progress.entriesScanned,
    BytesScanned: s.progress.bytesScanned,
    Stats: [],
    Messages: searchMessages(s),
  };
  if (s.failure) stats.Error = s.failure.reason;
  return stats;
}
