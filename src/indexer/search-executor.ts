/**
 * Contract between the storage layer (indexer) and whoever runs searches (direct search, persistent
 * searches). Implemented by `IndexerSearchExecutor`; the abstract class doubles as the Nest token.
 * A search is compiled once at the web server (`compileSearch`); its scan and merge workers compile
 * it again from the same text, range, `now`, tags, tables and limits (functions cannot cross threads).
 */
import { refusal } from '../common/errors/app-error';
import type { AppConfig } from '../config/app-config';
import { AxDefinition, CompiledQuery, compileQuery, Entry, LookupTable, ParseError, QueryLimits, RenderResult } from '../query';
import { EncodedEntry, WorkerEncoding } from './entry-encoding';

export interface SearchRange {
  start: Date;
  end: Date;
}

/** A query compiled once at the web server, with what its workers compile it from. */
export interface CompiledSearch {
  /** the query as written */
  query: string;
  /** the request's range (the query's start=/end= are resolved in `compiled.start`/`end`) */
  range: SearchRange;
  /** the one reference time of relative times, for every part of the search */
  now: Date;
  /** tag number -> name, read when the run starts (the runtime of `compiled` reads this map) */
  tagNames: Map<number, string>;
  limits: QueryLimits;
  /** the `ax` definitions it was compiled with (its workers compile it with them again) */
  autoextractors: readonly AxDefinition[];
  compiled: CompiledQuery;
}

/** The one mapping of an invalid query (ParseError) to a 400 with the parser's message. */
export function badQuery<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof ParseError) throw refusal('QUERY_INVALID', err.message);
    throw err;
  }
}

/**
 * Compiles a search (400 for a bad query). `lookups` are checked against the query's needs
 * (inner queries, which run with every table they read); a launch checks its tables itself.
 */
export function compileSearch(
  query: string,
  opts: { range: SearchRange; now?: Date; limits: QueryLimits; lookups?: ReadonlyMap<string, LookupTable>; autoextractors?: readonly AxDefinition[] },
): CompiledSearch {
  const now = opts.now ?? new Date();
  const tagNames = new Map<number, string>();
  const autoextractors = opts.autoextractors ?? [];
  const compiled = badQuery(() => compileQuery(query, { start: opts.range.start, end: opts.range.end, now, tagNames, lookups: opts.lookups, limits: opts.limits, autoextractors }));
  return { query, range: opts.range, now, tagNames, limits: opts.limits, autoextractors, compiled };
}

/** Memory bounds every part of a search compiles the query with (src/query/limits.ts). */
export function queryLimits(config: AppConfig): QueryLimits {
  return {
    maxTracked: config.searchMaxTracked,
    sortEntries: config.searchSortMaxEntries,
    limitEntries: config.searchLimitMaxEntries,
    renderRows: config.searchRenderMaxRows,
    heldMiB: config.searchHoldMaxMb,
    evalSteps: config.evalMaxSteps,
  };
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
  /** Runs a search compiled at launch (compound queries: their inner queries first). */
  abstract runCompiled(search: CompiledSearch, sink: SearchSink, opts: SearchRunOptions): Promise<SearchRunResult>;
  /** Compiles `query` over `range` (reference time `opts.now`, default now) and runs it. */
  abstract run(query: string, range: SearchRange, sink: SearchSink, opts: SearchRunOptions & { now?: Date }): Promise<SearchRunResult>;
}
