/**
 * Contract between the storage layer (indexer) and whoever runs searches (direct search, persistent
 * searches). Implemented by `IndexerSearchExecutor`; the abstract class doubles as the Nest token.
 */
import { CompiledQuery, Entry, LookupTable, RenderResult } from '../query';
import { EncodedEntry, WorkerEncoding } from './entry-encoding';

export interface SearchRange {
  start: Date;
  end: Date;
}

/** Receives persisted entries (streaming queries), in render order, as returned by the collapser's addEntries. */
export interface SearchSink {
  entries(batch: Entry[]): Promise<void> | void;
  /** With SearchRunOptions.encode: the entries as encoded by the scan workers, in render order. */
  encoded?(batch: EncodedEntry[]): Promise<void> | void;
}

export interface SearchProgress {
  entriesScanned: number;
  bytesScanned: number;
  finished: boolean;
  /**
   * How far the scans are: every entry from here to the range's end has been read (scans go
   * newest first, whole days at a time when the query is order-free). Undefined before the first batch.
   */
  position?: Date;
}

export interface SearchRunResult {
  result: RenderResult;
  compiled: CompiledQuery;
  progress: SearchProgress;
}

/** What a search reads and writes besides the indexers (prepared at launch by LookupResources). */
export interface SearchResources {
  /** `lookup -r` tables by reference as written, read at launch with the caller's rights */
  lookups?: ReadonlyMap<string, LookupTable>;
  /** `table -save`: called with the final result before the run resolves; its error fails the search */
  onResult?: (result: RenderResult) => Promise<void>;
}

export interface SearchRunOptions extends SearchResources {
  signal: AbortSignal;
  onProgress?: (p: SearchProgress) => void;
  /** whole-search limit; default config.searchTimeoutMs */
  timeoutMs?: number;
  /** false: text/raw renderers keep no entries in memory (the sink persists them). Default true. */
  retainEntries?: boolean;
  /** reference for relative times in the query; default now */
  now?: Date;
  /**
   * Streaming queries only: the scan workers encode entries in this format and the sink's
   * `encoded` receives them (no Entry objects on this thread; the result then counts nothing).
   */
  encode?: WorkerEncoding;
  /** the UID the search runs for: its concurrent searches are capped (SEARCH_CONCURRENCY_PER_USER) */
  owner?: number;
}

/**
 * Runs a whole query over every indexer and merges. Throws AppError: 400 bad query (parser message),
 * 408 timed out, 503 indexer unavailable, 499-ish 400 "Search cancelled" when the signal aborts.
 */
export abstract class SearchExecutor {
  /** Throws 429 when a search of `owner` started now would be refused (too many running and waiting). */
  abstract admit(owner?: number): void;
  abstract run(query: string, range: SearchRange, sink: SearchSink, opts: SearchRunOptions): Promise<SearchRunResult>;
}
