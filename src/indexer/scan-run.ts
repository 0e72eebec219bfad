/**
 * One run of a compiled query over the indexers: its scan jobs on pooled worker threads, the
 * merge of their streams in time order (entries, or entries the workers encoded for a direct
 * stream), the merge job of a condensing query, progress, the time limit, cancellation, and the
 * demotion of a long search. Settles once: done, or failed with every worker still busy ended.
 */
import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { AppError, refusal } from '../common/errors/app-error';
import { messageOf } from '../common/errors/codes';
import { Collapser, Entry, EVValue, LimitError, PartialState, RenderResult } from '../query';
import { decodeBatch, EncodedEntry } from './entry-encoding';
import { ScanWorkerPool } from './scan-worker-pool';
import { HostMessage, MergeJob, ScanJob, WorkerMessage } from './scan.protocol';
import { CompiledSearch, SearchProgress, SearchRunOptions, SearchRunResult, SearchSink } from './search-executor';
import { StreamMerge } from './stream-merge';

/** Merge jobs run on pooled workers kept under this key, and under this index among a search's jobs. */
const MERGE_KEY = 'merge';
const MERGE_JOB = -1;

/** A search stopped through its AbortSignal. */
export class SearchCancelledError extends AppError {
  constructor() {
    super(400, messageOf('SEARCH_CANCELLED'), {}, 'SEARCH_CANCELLED');
  }
}

/** A search that ran longer than its time limit (the worker threads were terminated). */
export class SearchTimeoutError extends AppError {
  constructor(ms: number) {
    super(408, messageOf('SEARCH_TIMED_OUT', ms), {}, 'SEARCH_TIMED_OUT');
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
    throw err instanceof LimitError ? refusal('SEARCH_LIMIT_REACHED', err.message) : err;
  }
}

/** A scan job of the run and the indexer it reads. */
export interface PlannedScan {
  indexer: { name: string; url: string };
  job: ScanJob;
}

export interface ScanRunContext {
  workers: ScanWorkerPool;
  logger: Logger;
  /** SEARCH_DEMOTE_AFTER_MS (0: never) */
  demoteAfterMs: number;
  /** Starts demoted: its owner ran a long search lately (RecentLongSearches). */
  startLong: boolean;
  /**
   * Called once when the search is demoted: `ranLong` when it ran past demoteAfterMs, false when
   * it starts demoted (startLong).
   */
  onLong?: (ranLong: boolean) => void;
  timeoutMs: number;
}

export class ScanRun {
  private readonly collapser: Collapser;
  private readonly retainEntries: boolean;
  private readonly partials: PartialState[] = [];
  private merged?: RenderResult;
  private readonly progress: SearchProgress = { entriesScanned: 0, bytesScanned: 0, finished: false };
  /** Per scan job: its counts and its watermark (epoch µs; every entry it has yet to read is older). */
  private readonly perJob: Array<{ scanned: number; bytes: number; watermark: number }>;
  private readonly entries: StreamMerge<Entry>;
  private readonly encoded: StreamMerge<EncodedEntry>;
  /** Workers still busy for this search, by job index; each is released or discarded once. */
  private readonly running = new Map<number, { worker: Worker; key: string; detach: () => void }>();
  private remaining: number;
  private settled = false;
  /** Ran past SEARCH_DEMOTE_AFTER_MS: its workers yield to short searches (search-priority.ts). */
  private long = false;
  /** Scan messages are handled one at a time, in order, so the sink sees entries in render order. */
  private chain: Promise<void> = Promise.resolve();
  private timers: NodeJS.Timeout[] = [];
  private end?: { resolve: () => void; reject: (err: unknown) => void };
  private readonly onAbort = () => this.fail(new SearchCancelledError());

  constructor(
    private readonly ctx: ScanRunContext,
    private readonly search: CompiledSearch,
    private readonly scans: PlannedScan[],
    /** what the merge job compiles the query with (as the scan jobs do) */
    private readonly mergeBase: Omit<MergeJob, 'partials' | 'retainEntries'>,
    private readonly sink: SearchSink,
    private readonly opts: Pick<SearchRunOptions, 'signal' | 'onProgress' | 'retainEntries'>,
  ) {
    this.retainEntries = opts.retainEntries ?? true;
    // Streaming queries render here (no module runs after the scan); condensing ones merge in a worker.
    this.collapser = search.compiled.createCollapser({ retainEntries: this.retainEntries });
    this.perJob = scans.map(() => ({ scanned: 0, bytes: 0, watermark: Number.POSITIVE_INFINITY }));
    this.entries = new StreamMerge<Entry>(scans.length);
    this.encoded = new StreamMerge<EncodedEntry>(scans.length);
    this.remaining = scans.length;
  }

  /** Runs the search to its end: the rendered result, or the error that ended it. */
  async result(): Promise<SearchRunResult> {
    await new Promise<void>((resolve, reject) => {
      this.end = { resolve, reject };
      this.start();
    });
    await this.chain;
    const result = this.merged ?? finishHere(this.collapser);
    this.progress.finished = true;
    this.opts.onProgress?.({ ...this.progress });
    return { result, compiled: this.search.compiled, progress: this.progress };
  }

  private start(): void {
    const { signal } = this.opts;
    if (signal.aborted) return this.fail(new SearchCancelledError());
    signal.addEventListener('abort', this.onAbort);
    this.timers.push(setTimeout(() => this.fail(new SearchTimeoutError(this.ctx.timeoutMs)), this.ctx.timeoutMs));
    if (this.ctx.startLong) {
      this.long = true;
      this.ctx.onLong?.(false);
    } else if (this.ctx.demoteAfterMs > 0) this.timers.push(setTimeout(() => this.demote(), this.ctx.demoteAfterMs));
    if (!this.scans.length) return this.search.compiled.streaming ? this.settle() : this.startMerge();
    this.scans.forEach(({ indexer, job }, i) => {
      const { worker, id } = this.ctx.workers.run(indexer.url, job);
      const onMessage = (m: WorkerMessage) => {
        this.chain = this.chain.then(() => this.onScan(i, indexer.name, worker, id, m)).catch((err: unknown) => this.fail(err));
      };
      this.watch(i, indexer.url, worker, onMessage, `scan worker for indexer ${indexer.name}`);
    });
  }

  private async onScan(i: number, name: string, worker: Worker, id: number, m: WorkerMessage): Promise<void> {
    if (this.settled) return;
    if (m.type === 'batch') {
      this.report(i, m.scanned, m.bytes, m.watermark);
      if (m.encoded) await this.emitEncoded(this.encoded.add(i, decodeBatch(m.encoded), m.watermark));
      else await this.emit(this.entries.add(i, this.search.compiled.streaming ? revive(m.entries) : [], m.watermark));
      worker.postMessage({ type: 'ack', id } satisfies HostMessage);
    } else if (m.type === 'done') {
      this.finishJob(i, true);
      this.report(i, m.scanned, m.bytes, Number.NEGATIVE_INFINITY);
      if (m.partial) this.partials.push(m.partial);
      await this.emit(this.entries.finish(i));
      await this.emitEncoded(this.encoded.finish(i));
      if (--this.remaining === 0) {
        if (this.search.compiled.streaming) this.settle();
        else this.startMerge();
      }
    } else if (m.type === 'error') {
      this.ctx.logger.warn(`scan on indexer ${name} failed: ${m.message}`);
      this.fail(m.unavailable ? refusal('INDEXER_UNAVAILABLE', name) : refusal('INDEXER_SEARCH_FAILED', name, m.message));
    }
  }

  /** A condensing query: the partial states go to a merge worker, which renders the result. */
  private startMerge(): void {
    const { worker } = this.ctx.workers.merge(MERGE_KEY, { ...this.mergeBase, partials: this.partials, retainEntries: this.retainEntries });
    const onMessage = (m: WorkerMessage) => {
      if (this.settled) return;
      if (m.type === 'merged') {
        this.merged = m.result.kind === 'entries' ? { ...m.result, Entries: revive(m.result.Entries) } : m.result;
        this.finishJob(MERGE_JOB, true);
        this.settle();
      } else if (m.type === 'error') {
        this.ctx.logger.warn(`search merge failed: ${m.message}`);
        this.fail(refusal('MERGE_FAILED', m.message));
      }
    };
    this.watch(MERGE_JOB, MERGE_KEY, worker, onMessage, 'merge worker');
  }

  /** Listens to a job's worker until finishJob; a crash or an exit fails the search. */
  private watch(index: number, key: string, w: Worker, onMessage: (m: WorkerMessage) => void, what: string): void {
    const onError = (err: Error) => {
      this.ctx.logger.warn({ err }, `${what} crashed`);
      this.fail(/memory/i.test(err.message) ? refusal('SEARCH_OUT_OF_MEMORY') : refusal('SEARCH_WORKER_FAILED'));
    };
    const onExit = () => this.fail(refusal('SEARCH_WORKER_STOPPED'));
    w.on('message', onMessage);
    w.on('error', onError);
    w.on('exit', onExit);
    if (this.long) this.ctx.workers.demote(w);
    const detach = () => {
      w.off('message', onMessage);
      w.off('error', onError);
      w.off('exit', onExit);
    };
    this.running.set(index, { worker: w, key, detach });
  }

  private finishJob(i: number, reuse: boolean): void {
    const r = this.running.get(i);
    if (!r) return;
    this.running.delete(i);
    r.detach();
    if (reuse) this.ctx.workers.release(r.key, r.worker);
    else this.ctx.workers.discard(r.worker);
  }

  /** A long search yields to short ones: its workers now, its merge when it starts. */
  private demote(): void {
    this.long = true;
    this.ctx.onLong?.(true);
    for (const r of this.running.values()) this.ctx.workers.demote(r.worker);
  }

  private async emit(entries: Entry[]): Promise<void> {
    if (entries.length) await this.sink.entries(this.collapser.addEntries(entries));
  }

  private async emitEncoded(entries: EncodedEntry[]): Promise<void> {
    if (entries.length) await this.sink.encoded!(entries);
  }

  private report(i: number, scanned: number, bytes: number, watermark: number): void {
    this.perJob[i] = { scanned, bytes, watermark };
    const p = this.progress;
    p.entriesScanned = this.perJob.reduce((a, j) => a + j.scanned, 0);
    p.bytesScanned = this.perJob.reduce((a, j) => a + j.bytes, 0);
    // The slowest job decides how far the whole search is.
    const behind = Math.max(...this.perJob.map((j) => j.watermark));
    if (Number.isFinite(behind) || behind === Number.NEGATIVE_INFINITY) {
      const { start, end } = this.search.compiled;
      p.position = new Date(Math.min(end.getTime(), Math.max(start.getTime(), behind / 1000)));
    }
    this.opts.onProgress?.({ ...p });
  }

  /** A memory bound of the query (a table's rows, rendered here for streaming queries) is the query's failure. */
  private fail(err: unknown): void {
    this.settle(err instanceof LimitError ? refusal('SEARCH_LIMIT_REACHED', err.message) : (err ?? refusal('SEARCH_RUN_FAILED')));
  }

  private settle(err?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    for (const t of this.timers) clearTimeout(t);
    this.opts.signal.removeEventListener('abort', this.onAbort);
    if (err === undefined) return this.end!.resolve();
    for (const i of [...this.running.keys()]) this.finishJob(i, false);
    this.end!.reject(err);
  }
}
