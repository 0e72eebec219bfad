/** One persistent search held in memory by the registry. */
import type { DownloadFormat } from '../query';
import { entryCsvColumns } from '../query';
import type { CompiledSearch, SearchProgress, SearchResources } from '../indexer/search-executor';
import { RenderStore } from './render-store';
import type { SearchAccount } from './store-quota';
import { SearchFailure, storedFailure } from './search-failure';
import { SearchFlags } from './search-state';
import type { StartSearchRequestDto } from './searchctrl.dto';
import type { SavedSearchRow } from './searchctrl.repository';

export interface ImportInfo {
  Imported: boolean;
  Time: string;
  BatchName: string;
  BatchInfo: string;
}

export interface LiveSearch {
  id: string;
  uid: number;
  gids: number[];
  global: boolean;
  userQuery: string;
  effectiveQuery: string;
  start: Date;
  end: Date;
  renderModule: string;
  renderCmd: string;
  downloadFormats: DownloadFormat[];
  collapsingIndex: number;
  queryTimeSpecified: boolean;
  noHistory: boolean;
  preview: boolean;
  name: string;
  /** StartSearchRequest.Metadata */
  metadata: unknown;
  /** PATCH save body */
  saveMetadata: unknown;
  launchInfo: unknown;
  import?: ImportInfo;
  /** TimeZoomDisabled of the effective query, when a query worker found it out (else SearchInfo parses the query once). */
  timeZoomDisabled?: boolean;
  /**
   * EV columns of its entries CSV, from the query as the launch compiled it (with the
   * autoextractors `ax` read then); a saved or imported search parses its effective query instead.
   */
  csvColumns?: string[];
  /** The state (the table of search-state.ts decides every change; sessions: SearchLifecycle). */
  flags: SearchFlags;
  started: Date;
  finishedAt?: Date;
  /** Set when the run failed (or its results could not be saved). */
  failure?: SearchFailure;
  /** What the finished run computed with less than it was asked for (RenderResult.Warnings); not kept when saved. */
  warnings?: string[];
  abort?: AbortController;
  progress: SearchProgress;
  store: RenderStore;
  /** Its share of the owner's storage quotas (store-quota.ts): its store charges it as it writes. */
  account: SearchAccount;
}

/**
 * A launch checked and compiled once (SearchCtrlService.prepare), before it runs: REST starts it
 * at once, the websocket announces it and starts it at the client's ACK.
 */
export interface LaunchPlan {
  /** chosen at preparation (the websocket announces it before the search exists) */
  id: string;
  request: StartSearchRequestDto;
  /** the query, compiled over the resolved range (the request's range, default the last hour) */
  search: CompiledSearch;
  gids: number[];
  global: boolean;
  renderCmd: string;
  /** TimeZoomDisabled of the effective query, from the query worker's compile */
  timeZoomDisabled?: boolean;
}

/** A plan with what its run reads besides the indexers, read with the caller's rights. */
export interface PreparedLaunch extends LaunchPlan {
  resources: SearchResources;
}

/** Entries the renderer received (entries results: the stored count). */
export function entryCount(s: LiveSearch): number {
  return s.store.entryCount;
}

/** The search a prepared launch starts, owned by `uid`, with no session yet (SearchLifecycle.launch attaches the first). */
export function newLiveSearch(uid: number, p: PreparedLaunch, store: RenderStore, account: SearchAccount): LiveSearch {
  const req = p.request;
  const c = p.search.compiled;
  return {
    id: p.id,
    uid,
    gids: p.gids,
    global: p.global,
    userQuery: req.SearchString,
    effectiveQuery: c.parsed.effectiveQuery,
    start: c.start,
    end: c.end,
    renderModule: c.renderModule,
    renderCmd: p.renderCmd,
    downloadFormats: [...c.downloadFormats],
    collapsingIndex: c.collapsingIndex,
    queryTimeSpecified: c.queryTimeSpecified,
    noHistory: req.NoHistory ?? false,
    preview: req.Preview ?? false,
    name: req.Name ?? '',
    metadata: req.Metadata,
    saveMetadata: undefined,
    launchInfo: req.LaunchInfo,
    timeZoomDisabled: p.timeZoomDisabled,
    csvColumns: entryCsvColumns(c.parsed),
    flags: { clients: 0, finished: false, backgrounded: req.Background ?? false, saveRequested: false, saved: false, moving: false, removed: false },
    started: new Date(),
    progress: { entriesScanned: 0, bytesScanned: 0, finished: false },
    store,
    account,
  };
}

/** A saved (or imported) search as its row and stored results describe it: dormant, no session. */
export function liveSearchFromRow(row: SavedSearchRow, store: RenderStore, account: SearchAccount): LiveSearch {
  return {
    id: row.id,
    uid: row.uid,
    gids: row.gids,
    global: row.global,
    userQuery: row.userQuery,
    effectiveQuery: row.effectiveQuery,
    start: row.start,
    end: row.end,
    renderModule: row.renderModule,
    renderCmd: row.renderCmd,
    downloadFormats: row.downloadFormats,
    collapsingIndex: row.collapsingIndex,
    queryTimeSpecified: row.queryTimeSpecified,
    noHistory: row.noHistory,
    preview: false,
    name: row.name,
    metadata: row.metadata,
    saveMetadata: row.saveMetadata,
    launchInfo: row.launchInfo,
    import: row.importInfo ?? undefined,
    flags: { clients: 0, finished: true, backgrounded: row.backgrounded, saveRequested: false, saved: true, moving: false, removed: false },
    started: row.started,
    finishedAt: row.finished,
    failure: row.error ? storedFailure(row.error) : undefined,
    progress: { entriesScanned: 0, bytesScanned: 0, finished: true },
    store,
    account,
  };
}

/** The row that persists a saved search. */
export function rowOf(s: LiveSearch): SavedSearchRow {
  return {
    id: s.id,
    uid: s.uid,
    gids: s.gids,
    global: s.global,
    userQuery: s.userQuery,
    effectiveQuery: s.effectiveQuery,
    start: s.start,
    end: s.end,
    started: s.started,
    finished: s.finishedAt ?? new Date(),
    renderModule: s.renderModule,
    renderCmd: s.renderCmd,
    downloadFormats: s.downloadFormats,
    collapsingIndex: s.collapsingIndex,
    queryTimeSpecified: s.queryTimeSpecified,
    noHistory: s.noHistory,
    backgrounded: s.flags.backgrounded,
    name: s.name,
    metadata: s.metadata,
    saveMetadata: s.saveMetadata,
    launchInfo: s.launchInfo,
    importInfo: s.import ?? null,
    error: s.failure?.reason ?? null,
    overLimit: s.store.overLimit,
    storeSize: s.store.storeSize,
    indexSize: s.store.indexSize,
  };
}
