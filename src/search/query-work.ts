/**
 * Work a query costs before it runs, off the event loop and bounded per user: describing it
 * (POST /api/parse), compiling it once to check it (every launch), and parsing the lookup tables
 * it names. A 65,536-character query of thousands of modules takes 0.1-0.3 s to compile and a
 * 32 MiB table longer to parse; on the event loop that stalled every other request. Here each
 * runs in a query worker thread (QUERY_WORKERS, at SEARCH_NICE), admitted first: at most
 * QUERY_WORK_PER_USER of one user at once and QUERY_WORK_QUEUE waiting, then 429.
 *
 * The web server still compiles an accepted query itself (its merge and renderer run from the
 * compiled form), so a query whose compile takes longer than QUERY_COMPILE_MAX_MS of CPU in the
 * worker is refused with 400: what is left for the event loop stays that small.
 */
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import * as path from 'node:path';
import { TransferListItem } from 'node:worker_threads';
import { AppError, refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import type { SearchRange } from '../indexer/search-executor';
import type { AxDefinition, LookupTable, MacroExpansion, QueryDescription, QueryLimits } from '../query';
import type { CompileFacts, CompileInput, DescribeInput, TableInput } from './query.worker';
import { TaskOutOfMemory, TaskWorkers } from './task-workers';
import { UserGate } from '../common/concurrency/user-gate';

export type { CompileFacts } from './query.worker';

/** Only an expansion with macros and `ax` definitions cross to the worker when there are any. */
const describeInput = (query: string, expansion?: MacroExpansion, autoextractors: AxDefinition[] = []): DescribeInput => ({
  query,
  ...(expansion?.spans.length && { expansion }),
  ...(autoextractors.length && { autoextractors }),
});

/** Heap of a query worker: compiles are small, and tables live in SharedArrayBuffers outside it. */
const QUERY_WORKER_HEAP_MB = 256;
const RETRY_AFTER_S = 1;

@Injectable()
export class QueryWork implements OnModuleDestroy {
  private readonly workers: TaskWorkers;
  private readonly gate: UserGate;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.workers = new TaskWorkers({ entry: path.join(__dirname, 'query.worker'), size: config.queryWorkers, heapMb: QUERY_WORKER_HEAP_MB, data: { kind: 'query' } });
    const { queryWorkPerUser: perUser, queryWorkQueue: queue } = config;
    this.gate = new UserGate(config.queryWorkers, perUser, queue, (scope) =>
      scope === 'user' ? refusal('QUERY_WORK_BUSY_FOR_USER', perUser, queue).retryAfter(RETRY_AFTER_S) : refusal('QUERY_WORK_BUSY', queue).retryAfter(RETRY_AFTER_S),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers.close();
  }

  /**
   * The description of a query (ParseSearchResponse, websocket parse frames), made in a worker;
   * `expansion`: the macros it was expanded from (QueryMacroExpander), named by its parse error.
   */
  describe(uid: number, query: string, expansion?: MacroExpansion, autoextractors?: AxDefinition[]): Promise<QueryDescription> {
    return this.gate.run(uid, () => this.task<QueryDescription>('describe', describeInput(query, expansion, autoextractors)));
  }

  /**
   * POST /api/parse: the description as JSON text, made in a worker (a 65,536-character query's
   * is about 800 KB: one string crosses over, not thousands of objects to clone and stringify).
   */
  describeJson(uid: number, query: string, expansion?: MacroExpansion, autoextractors?: AxDefinition[]): Promise<string> {
    return this.gate.run(uid, () => this.task<string>('describeJson', describeInput(query, expansion, autoextractors)));
  }

  /**
   * Compiles `query` in a worker: 400 with the parser's message for a bad query, or when it takes
   * more than QUERY_COMPILE_MAX_MS of CPU. Answers what the web server keeps of it.
   */
  async compile(
    uid: number,
    query: string,
    range: SearchRange,
    now: Date,
    limits: QueryLimits,
    expansion?: MacroExpansion,
    autoextractors: AxDefinition[] = [],
  ): Promise<CompileFacts> {
    const max = this.config.queryCompileMaxMs;
    const input: CompileInput = { query, startMs: range.start.getTime(), endMs: range.end.getTime(), nowMs: now.getTime(), limits, maxMs: max };
    if (expansion?.spans.length) input.expansion = expansion;
    if (autoextractors.length) input.autoextractors = autoextractors;
    const facts = await this.gate.run(uid, () => this.task<CompileFacts>('compile', input));
    if (facts.cpuMs > max) {
      throw refusal('QUERY_TOO_EXPENSIVE', facts.cpuMs, max);
    }
    return facts;
  }

  /**
   * Reads (`read`, once admitted) and parses a CSV lookup table in a worker, admitted like a
   * compile: the bytes of one user's tables are held one (QUERY_WORK_PER_USER) at a time. The
   * table comes back in SharedArrayBuffers, without a copy. A CSV that is no table throws
   * `notATable(why)`.
   */
  parseTable(uid: number, read: () => Promise<Uint8Array>, maxBytes: number, notATable: (why: string) => Error): Promise<LookupTable> {
    return this.gate.run(uid, async () => {
      const bytes = await read();
      const input: TableInput = { bytes, maxBytes };
      // A buffer of its own moves to the worker; a view into a larger one is copied.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      try {
        return await this.task<LookupTable>('table', input, own ? [bytes.buffer as ArrayBuffer] : []);
      } catch (err) {
        if (err instanceof AppError && err.status === 400) throw notATable(err.message);
        throw err;
      }
    });
  }

  private async task<T>(kind: string, input: unknown, transfer: TransferListItem[] = []): Promise<T> {
    try {
      return await this.workers.run<T>(kind, input, { transfer });
    } catch (err) {
      if (err instanceof TaskOutOfMemory) throw refusal('QUERY_OUT_OF_MEMORY', QUERY_WORKER_HEAP_MB);
      throw err;
    }
  }
}
