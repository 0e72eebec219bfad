import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { CompiledQuery, QueryLimits, tagMatcher } from '../query';
import { runSearch } from './compound-run';
import { Indexer, IndexerPools } from './indexer-pools';
import { SHARDS } from './block-codec';
import { DAY_MS_CONST as DAY_MS } from './indexer.schema';
import { IndexerService } from './indexer.service';
import { ScanRun, ScanRunContext, SearchCancelledError } from './scan-run';
import { ScanWorkerPool } from './scan-worker-pool';
import { MergeJob, MIN_SPLIT_BYTES, ScanJob } from './scan.protocol';
import { GatePlace } from '../common/concurrency/user-gate';
import { SearchAdmission } from './search-admission';
import { RecentLongSearches } from './search-priority';
import { CompiledSearch, compileSearch, queryLimits, SearchExecutor, SearchRange, SearchRunOptions, SearchRunResult, SearchSink } from './search-executor';

/**
 * Entries per batch a scan job hands its pipeline and posts. Streaming queries post every surviving row to the web server, where a
 * batch is deserialised in one go on the event loop: smaller batches keep those pauses short
 * (another user's big stream took whoami's p99 from 1.9x to 2.4x of quiet with 5000).
 * Condensing queries post nothing per batch, and fetch more at a time.
 */
const FETCH_SIZE = { streaming: 1000, condensing: 5000 };
const WINDOW = 4;

/** Runs a query on every indexer in (pooled) worker threads and merges at the web server (ScanRun). */
@Injectable()
export class IndexerSearchExecutor extends SearchExecutor implements OnModuleDestroy {
  private readonly logger = new Logger(IndexerSearchExecutor.name);
  private readonly workers: ScanWorkerPool;
  private readonly admission: SearchAdmission;
  /** Users whose searches ran long lately start new ones demoted (for 10 s after the last). */
  private readonly recentLong = new RecentLongSearches(10_000);
  /** Memory bounds every job of a search compiles the query with (src/query/limits.ts). */
  private readonly queryLimits: QueryLimits;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pools: IndexerPools,
    private readonly indexer: IndexerService,
  ) {
    super();
    // Keep enough idle workers for every admitted search at once (its scans and its merge): with
    // fewer, each busy moment ends by terminating workers that the next moment starts again, and a
    // thread start costs far more CPU than the small searches it serves. Idle ones end after IDLE_MS.
    this.workers = new ScanWorkerPool(config.searchConcurrency * (config.scanParallelism + 1));
    this.admission = new SearchAdmission(config.searchConcurrency, config.searchConcurrencyPerUser, config.searchQueue, config.searchLongConcurrency);
    this.queryLimits = queryLimits(config);
  }

  /** Shutdown: no scan outlives the service. */
  async onModuleDestroy(): Promise<void> {
    await this.workers.close();
  }

  /**
   * One scan job per indexer; for order-free queries over enough data, `scanParallelism` jobs per
   * indexer, each scanning its shards of the blocks (ScanSplit), so that decompression, PostgreSQL
   * and the pipeline use more than one core.
   */
  private async plan(compiled: CompiledQuery, base: Omit<ScanJob, keyof ReturnType<IndexerPools['clientConfig']>>): Promise<Array<{ ix: Indexer; job: ScanJob }>> {
    const ready = await Promise.all(this.pools.all.map((ix) => this.pools.ensureReady(ix)));
    const parts = !compiled.pushdown.ordered && base.tagIds.length ? Math.min(this.config.scanParallelism, SHARDS) : 1;
    const perIndexer = await Promise.all(
      ready.map(async (ix) => {
        const job: ScanJob = { ...this.pools.clientConfig(ix), ...base };
        if (parts < 2 || (await this.rawBytes(ix, compiled.start, compiled.end, base.tagIds)) < MIN_SPLIT_BYTES) return [{ ix, job }];
        return Array.from({ length: parts }, (_, part) => ({ ix, job: { ...job, split: { part, of: parts } } }));
      }),
    );
    return perIndexer.flat();
  }

  /** Bytes (before compression) of the blocks of an indexer that overlap [start, end): block rows only, no body is read. */
  private async rawBytes(ix: Indexer, start: Date, end: Date, tagIds: number[]): Promise<number> {
    if (end <= start) return 0;
    const firstDay = new Date(Math.floor(start.getTime() / DAY_MS) * DAY_MS);
    const c = await this.pools.connect(ix);
    try {
      const sql = 'SELECT coalesce(sum(raw), 0)::float8 AS raw FROM block WHERE lo >= $1 AND lo < $2 AND hi >= $3 AND tag = ANY($4::smallint[])';
      return (await c.query<{ raw: number }>(sql, [firstDay, end, start, tagIds])).rows[0].raw;
    } finally {
      c.release();
    }
  }

  admit(owner?: number): void {
    this.admission.check(owner);
  }

  /** Compiles `query` (one `now` for every part) and runs it. */
  async run(query: string, range: SearchRange, sink: SearchSink, opts: SearchRunOptions & { now?: Date }): Promise<SearchRunResult> {
    return this.runCompiled(compileSearch(query, { range, now: opts.now, limits: this.queryLimits }), sink, opts);
  }

  /**
   * Waits for a slot (SearchAdmission: per user and in all), then runs the search (compound: see
   * runSearch); once demoted it moves to the long lane, giving its overall slot to the next search.
   */
  runCompiled(search: CompiledSearch, sink: SearchSink, opts: SearchRunOptions): Promise<SearchRunResult> {
    const limits = { timeoutMs: opts.timeoutMs ?? this.config.searchTimeoutMs, lookupMaxBytes: this.config.lookupMaxBytes };
    return runSearch(search, sink, opts, limits, (q, s, o) => this.admission.run(opts.owner, (place) => this.runNow(q, s, o, place)));
  }

  /** Slots now: overall, long lane, demoted searches waiting for a long slot (tests). */
  get admissionLoad(): SearchAdmission['load'] {
    return this.admission.load;
  }

  private async runNow(search: CompiledSearch, sink: SearchSink, opts: SearchRunOptions, place: GatePlace): Promise<SearchRunResult> {
    if (opts.signal.aborted) throw new SearchCancelledError();
    const tagNames = await this.indexer.tagNames();
    // The runtime of the compiled query (TAG at the web server) reads the tags as they are now.
    search.tagNames.clear();
    for (const [id, name] of tagNames) search.tagNames.set(id, name);
    const compiled = search.compiled;
    const matches = tagMatcher(compiled.pushdown.tags);
    const tagIds = [...tagNames].filter(([, name]) => matches(name)).map(([id]) => id);
    // What every job of this search (scans and the merge) compiles the query with: what the web server compiled it with.
    const common: Omit<MergeJob, 'partials' | 'retainEntries'> = {
      query: search.query,
      start: search.range.start.toISOString(),
      end: search.range.end.toISOString(),
      now: search.now.toISOString(),
      tagNames: [...tagNames],
      lookups: opts.lookups && [...opts.lookups],
      limits: search.limits,
      autoextractors: search.autoextractors.length ? [...search.autoextractors] : undefined,
    };
    const fetchSize = compiled.streaming ? FETCH_SIZE.streaming : FETCH_SIZE.condensing;
    const encode = compiled.streaming && sink.encoded ? opts.encode : undefined;
    const plan = await this.plan(compiled, { ...common, tagIds, fetchSize, window: WINDOW, encode });
    const owner = opts.owner;
    const ctx: ScanRunContext = {
      workers: this.workers,
      logger: this.logger,
      demoteAfterMs: this.config.searchDemoteAfterMs,
      startLong: this.recentLong.startsLong(owner),
      // Demoted (now, or from the start): its overall slot goes to the next search, if the long lane has room.
      onLong: (ranLong) => {
        place.moveToLong();
        if (ranLong && owner !== undefined) this.recentLong.ranLong(owner);
      },
      timeoutMs: opts.timeoutMs ?? this.config.searchTimeoutMs,
    };
    const scans = plan.map((p) => ({ indexer: p.ix, job: p.job }));
    return new ScanRun(ctx, search, scans, common, sink, opts).result();
  }
}
