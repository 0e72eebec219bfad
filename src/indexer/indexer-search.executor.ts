import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { AppError, badRequest, serviceUnavailable } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { Collapser, CompiledQuery, compileQuery, Entry, EVValue, LimitError, ParseError, PartialState, QueryLimits, RenderResult, tagMatcher } from '../query';
import { runSearch } from './compound-run';
import { Indexer, IndexerPools } from './indexer-pools';
import { dayOfMicros, PARTITION_BLOCKS_SQL, partitionName } from './indexer.schema';
import { IndexerService } from './indexer.service';
import { ScanWorkerPool } from './scan-worker-pool';
import { HostMessage, MergeJob, MIN_SPLIT_BLOCKS, ScanJob, WorkerMessage } from './scan.protocol';
import { SearchAdmission } from './search-admission';
import { SearchExecutor, SearchProgress, SearchRange, SearchRunOptions, SearchRunResult, SearchSink } from './search-executor';
import { StreamMerge } from './stream-merge';
import { decodeBatch, EncodedEntry } from './entry-encoding';

/**
 * Rows per cursor FETCH. Streaming queries post every surviving row to the web server, where a
 * batch is deserialised in one go on the event loop: smaller batches keep those pauses short
 * (another user's big stream took whoami's p99 from 1.9x to 2.4x of quiet with 5000).
 * Condensing queries post nothing per batch, and fetch more at a time.
 */
const FETCH_SIZE = { streaming: 1000, condensing: 5000 };
/** Merge jobs run on pooled workers kept under this key, and under this index among a search's jobs. */
const MERGE_KEY = 'merge';
const MERGE_JOB = -1;
const WINDOW = 4;

/** A search stopped through its AbortSignal. */
export class SearchCancelledError extends AppError {
  constructor() {
    super(400, 'Search was cancelled');
  }
}

/** A search that ran longer than its time limit (the worker threads were terminated). */
export class SearchTimeoutError extends AppError {
  constructor(ms: number) {
    super(408, `Search timed out after ${ms} ms and was stopped (an expensive regular expression or a large time range may be the cause)`);
  }
}

/** Structured clone turns Buffers into Uint8Arrays: re-wrap data and EV values. */
function revive(entries: Entry[]): Entry[] {
  for (const e of entries) {
    const d = e.data as Uint8Array;
    if (!Buffer.isBuffer(d)) e.data = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
    for (const [k, value] of e.evs) {
      const v = value as unknown;
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) e.evs.set(k, Buffer.from(v.buffer, v.byteOffset, v.byteLength) as EVValue);
    }
  }
  return entries;
}

/** Renders a streaming query's result here; a memory bound it meets (a chart's values) is the query's failure. */
function finishHere(collapser: Collapser): RenderResult {
  try {
    return collapser.finish();
  } catch (err) {
    throw err instanceof LimitError ? badRequest(err.message) : err;
  }
}

/** Runs a query on every indexer in (pooled) worker threads and merges at the web server. */
@Injectable()
export class IndexerSearchExecutor extends SearchExecutor implements OnModuleDestroy {
  private readonly logger = new Logger(IndexerSearchExecutor.name);
  private readonly workers: ScanWorkerPool;
  private readonly admission: SearchAdmission;
  /** Memory bounds every job of a search compiles the query with (src/query/limits.ts). */
  private readonly queryLimits: QueryLimits;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pools: IndexerPools,
    private readonly indexer: IndexerService,
  ) {
    super();
    // Keep enough idle workers for one parallel scan of an indexer.
    this.workers = new ScanWorkerPool(Math.max(2, config.scanParallelism));
    this.admission = new SearchAdmission(config.searchConcurrency, config.searchConcurrencyPerUser, config.searchQueue);
    this.queryLimits = {
      maxTracked: config.searchMaxTracked,
      sortEntries: config.searchSortMaxEntries,
      limitEntries: config.searchLimitMaxEntries,
      renderRows: config.searchRenderMaxRows,
      heldMiB: config.searchHoldMaxMb,
      evalSteps: config.evalMaxSteps,
    };
  }

  /** Shutdown: no scan outlives the service. */
  async onModuleDestroy(): Promise<void> {
    await this.workers.close();
  }

  /**
   * One scan job per indexer; for order-free queries over large partitions, `scanParallelism`
   * jobs per indexer, each scanning a share of every large partition, so that PostgreSQL and the
   * pipeline use more than one core.
   */
  private async plan(compiled: CompiledQuery, base: Omit<ScanJob, keyof ReturnType<IndexerPools['clientConfig']>>): Promise<Array<{ ix: Indexer; job: ScanJob }>> {
    const ready = await Promise.all(this.pools.all.map((ix) => this.pools.ensureReady(ix)));
    const parts = !compiled.pushdown.ordered && base.tagIds.length ? this.config.scanParallelism : 1;
    const perIndexer = await Promise.all(
      ready.map(async (ix) => {
        const job: ScanJob = { ...this.pools.clientConfig(ix), ...base };
        const blocks = parts > 1 ? await this.partitionBlocks(ix, compiled.start, compiled.end) : {};
        if (!Object.values(blocks).some((n) => n >= MIN_SPLIT_BLOCKS)) return [{ ix, job }];
        return Array.from({ length: parts }, (_, part) => ({ ix, job: { ...job, split: { part, of: parts, blocks } } }));
      }),
    );
    return perIndexer.flat();
  }

  /** Current size in blocks of the day partitions of an indexer that overlap [start, end). */
  private async partitionBlocks(ix: Indexer, start: Date, end: Date): Promise<Record<string, number>> {
    if (end <= start) return {};
    const names = [partitionName(dayOfMicros(start.getTime() * 1000)), partitionName(dayOfMicros(end.getTime() * 1000 - 1))];
    const c = await this.pools.connect(ix);
    try {
      const rows = (await c.query<{ name: string; blocks: number }>(PARTITION_BLOCKS_SQL, names)).rows;
      return Object.fromEntries(rows.map((r) => [r.name, r.blocks]));
    } finally {
      c.release();
    }
  }

  admit(owner?: number): void {
    this.admission.check(owner);
  }

  /** Waits for a slot (SearchAdmission: per user and in all), then runs the search (compound: see runSearch). */
  run(query: string, range: SearchRange, sink: SearchSink, opts: SearchRunOptions): Promise<SearchRunResult> {
    const limits = { timeoutMs: opts.timeoutMs ?? this.config.searchTimeoutMs, lookupMaxBytes: this.config.lookupMaxBytes };
    return runSearch(query, sink, opts, limits, (q, s, o) => this.admission.run(opts.owner, () => this.runNow(q, range, s, o)));
  }

  private async runNow(query: string, range: SearchRange, sink: SearchSink, opts: SearchRunOptions): Promise<SearchRunResult> {
    if (opts.signal.aborted) throw new SearchCancelledError();
    const now = opts.now ?? new Date();
    const tagNames = await this.indexer.tagNames();
    let compiled: CompiledQuery;
    try {
      compiled = compileQuery(query, { start: range.start, end: range.end, now, tagNames, lookups: opts.lookups, limits: this.queryLimits });
    } catch (err) {
      if (err instanceof ParseError) throw badRequest(err.message);
      throw err;
    }
    const matches = tagMatcher(compiled.pushdown.tags);
    const tagIds = [...tagNames].filter(([, name]) => matches(name)).map(([id]) => id);
    // What every job of this search (scans and the merge) compiles the query with.
    const common = { query, start: range.start.toISOString(), end: range.end.toISOString(), now: now.toISOString(), tagNames: [...tagNames], lookups: opts.lookups && [...opts.lookups], limits: this.queryLimits };
    const fetchSize = compiled.streaming ? FETCH_SIZE.streaming : FETCH_SIZE.condensing;
    const encode = compiled.streaming && sink.encoded ? opts.encode : undefined;
    const plan = await this.plan(compiled, { ...common, tagIds, fetchSize, window: WINDOW, encode });
    const indexers = plan.map((p) => p.ix);
    const jobs = plan.map((p) => p.job);
    const retainEntries = opts.retainEntries ?? true;
    // Streaming queries render here (no module runs after the scan); condensing ones merge in a worker.
    const collapser = compiled.createCollapser({ retainEntries });
    const partials: PartialState[] = [];
    let merged: RenderResult | undefined;
    const progress: SearchProgress = { entriesScanned: 0, bytesScanned: 0, finished: false };
    /** Per scan job: its counts and its watermark (epoch µs; every entry it has yet to read is older). */
    const perWorker = jobs.map(() => ({ scanned: 0, bytes: 0, watermark: Number.POSITIVE_INFINITY }));
    const merge = new StreamMerge<Entry>(jobs.length);
    const encodedMerge = new StreamMerge<EncodedEntry>(jobs.length);
    const timeoutMs = opts.timeoutMs ?? this.config.searchTimeoutMs;

    /** Workers still scanning for this search, by job index; each is released or discarded once. */
    const running = new Map<number, { worker: Worker; key: string; detach: () => void }>();
    let settled = false;
    // Messages are handled one at a time, in order, so the sink sees entries in render order.
    let chain: Promise<void> = Promise.resolve();

    await new Promise<void>((resolve, reject) => {
      let remaining = jobs.length;
      const finishJob = (i: number, reuse: boolean) => {
        const r = running.get(i);
        if (!r) return;
        running.delete(i);
        r.detach();
        if (reuse) this.workers.release(r.key, r.worker);
        else this.workers.discard(r.worker);
      };
      const startMerge = () => {
        const job: MergeJob = { ...common, partials, retainEntries };
        const { worker: w } = this.workers.merge(MERGE_KEY, job);
        const onMessage = (m: WorkerMessage) => {
          if (settled) return;
          if (m.type === 'merged') {
            merged = m.result.kind === 'entries' ? { ...m.result, Entries: revive(m.result.Entries) } : m.result;
            finishJob(MERGE_JOB, true);
            settle();
          } else if (m.type === 'error') {
            this.logger.warn(`search merge failed: ${m.message}`);
            fail(badRequest(`Merging the results failed: ${m.message}`));
          }
        };
        watch(MERGE_JOB, MERGE_KEY, w, onMessage, 'merge worker');
      };
      /** Listens to a job's worker until finishJob; a crash or an exit fails the search. */
      const watch = (index: number, key: string, w: Worker, onMessage: (m: WorkerMessage) => void, what: string) => {
        const onError = (err: Error) => {
          this.logger.warn({ err }, `${what} crashed`);
          fail(/memory/i.test(err.message) ? badRequest('Search needed too much memory and was stopped') : new AppError(500, 'Search worker failed'));
        };
        const onExit = () => fail(new AppError(500, 'Search worker stopped unexpectedly'));
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', onExit);
        if (long) this.workers.demote(w);
        running.set(index, {
          worker: w,
          key,
          detach: () => {
            w.off('message', onMessage);
            w.off('error', onError);
            w.off('exit', onExit);
          },
        });
      };
      const settle = (err?: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(demoteTimer);
        opts.signal.removeEventListener('abort', onAbort);
        if (err === undefined) return resolve();
        for (const i of [...running.keys()]) finishJob(i, false);
        reject(err);
      };
      // A memory bound of the query (a table's rows, rendered here for streaming queries) is the query's failure.
      const fail = (err: unknown) => settle(err instanceof LimitError ? badRequest(err.message) : (err ?? new AppError(500, 'Search failed')));
      const onAbort = () => fail(new SearchCancelledError());
      opts.signal.addEventListener('abort', onAbort);
      const timer = setTimeout(() => fail(new SearchTimeoutError(timeoutMs)), timeoutMs);
      // A long search yields to short ones (search-priority.ts): its workers now, its merge when it starts.
      let long = false;
      const demoteAfter = this.config.searchDemoteAfterMs;
      const demoteTimer =
        demoteAfter > 0
          ? setTimeout(() => {
              long = true;
              for (const r of running.values()) this.workers.demote(r.worker);
            }, demoteAfter)
          : undefined;
      const emit = async (entries: Entry[]) => {
        if (!entries.length) return;
        const out = collapser.addEntries(entries);
        await sink.entries(out);
      };
      const emitEncoded = async (entries: EncodedEntry[]) => {
        if (entries.length) await sink.encoded!(entries);
      };
      const report = (i: number, scanned: number, bytes: number, watermark: number) => {
        perWorker[i] = { scanned, bytes, watermark };
        progress.entriesScanned = perWorker.reduce((a, p) => a + p.scanned, 0);
        progress.bytesScanned = perWorker.reduce((a, p) => a + p.bytes, 0);
        // The slowest job decides how far the whole search is.
        const behind = Math.max(...perWorker.map((p) => p.watermark));
        if (Number.isFinite(behind) || behind === Number.NEGATIVE_INFINITY) {
          progress.position = new Date(Math.min(range.end.getTime(), Math.max(range.start.getTime(), behind / 1000)));
        }
        opts.onProgress?.({ ...progress });
      };
      if (!jobs.length) return compiled.streaming ? settle() : startMerge();
      jobs.forEach((job, i) => {
        const name = indexers[i].name;
        const { worker: w, id } = this.workers.run(indexers[i].url, job);
        const onMessage = (m: WorkerMessage) => {
          chain = chain
            .then(async () => {
              if (settled) return;
              if (m.type === 'batch') {
                report(i, m.scanned, m.bytes, m.watermark);
                if (m.encoded) await emitEncoded(encodedMerge.add(i, decodeBatch(m.encoded), m.watermark));
                else await emit(merge.add(i, compiled.streaming ? revive(m.entries) : [], m.watermark));
                w.postMessage({ type: 'ack', id } satisfies HostMessage);
              } else if (m.type === 'done') {
                finishJob(i, true);
                report(i, m.scanned, m.bytes, Number.NEGATIVE_INFINITY);
                if (m.partial) partials.push(m.partial);
                await emit(merge.finish(i));
                await emitEncoded(encodedMerge.finish(i));
                if (--remaining === 0) {
                  if (compiled.streaming) settle();
                  else startMerge();
                }
              } else if (m.type === 'error') {
                this.logger.warn(`scan on indexer ${name} failed: ${m.message}`);
                fail(m.unavailable ? serviceUnavailable(`Indexer ${name} is unavailable`) : badRequest(`Indexer ${name} could not run the search: ${m.message}`));
              }
            })
            .catch(fail);
        };
        watch(i, indexers[i].url, w, onMessage, `scan worker for indexer ${name}`);
      });
    });
    await chain;
    const result = merged ?? finishHere(collapser);
    progress.finished = true;
    opts.onProgress?.({ ...progress });
    return { result, compiled, progress };
  }
}
