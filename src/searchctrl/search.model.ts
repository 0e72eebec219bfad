/** One persistent search held in memory by the registry. */
import type { DownloadFormat } from '../query';
import type { SearchProgress, SearchResources } from '../indexer/search-executor';
import { RenderStore } from './render-store';
import type { SearchFailure } from './search-failure';
import { SearchFlags } from './search-state';

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
  flags: SearchFlags;
  /** attached session id -> last ping (ms since epoch) */
  sessions: Map<string, number>;
  started: Date;
  finishedAt?: Date;
  /** Set when the run failed (or its results could not be saved). */
  failure?: SearchFailure;
  abort?: AbortController;
  /** Lookup tables and `table -save` of the run (prepared at launch); released when the run ends. */
  resources?: SearchResources;
  progress: SearchProgress;
  store: RenderStore;
  /** The results are being moved to the saved area. */
  moving: boolean;
  /** Removed from the registry (delete / last client left). */
  removed: boolean;
}

/** Entries the renderer received (entries results: the stored count). */
export function entryCount(s: LiveSearch): number {
  return s.store.entryCount;
}
