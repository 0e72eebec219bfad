/**
 * Messages between the search executor and its scan workers. A worker runs one job at a time and
 * is kept (with its open PostgreSQL connection) for later jobs by ScanWorkerPool.
 */
import { AxDefinition, Entry, LookupTable, PartialState, QueryLimits, RenderResult } from '../query';
import { EncodedBatch, WorkerEncoding } from './entry-encoding';

export interface ScanJob {
  connectionString: string;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  query: string;
  /** request range and reference time, ISO strings (the worker compiles the query itself) */
  start: string;
  end: string;
  now: string;
  tagNames: Array<[number, string]>;
  /** `lookup -r` tables (their buffers are SharedArrayBuffers: every worker reads the same memory) */
  lookups?: Array<[string, LookupTable]>;
  /** memory bounds of the condensing modules and renderers (SEARCH_* settings): compile the query with them */
  limits?: Partial<QueryLimits>;
  /** the `ax` definitions the web server compiled the query with */
  autoextractors?: AxDefinition[];
  /** tag numbers matching the query's tag patterns (resolved at the web server) */
  tagIds: number[];
  /** entries per batch handed to the pipeline and posted */
  fetchSize: number;
  /** batches the worker may post before waiting for an ack */
  window: number;
  /** order-free queries only: this job's share of the blocks (see ScanSplit) */
  split?: ScanSplit;
  /** streamed direct searches: post entries encoded in this format instead of as objects */
  encode?: WorkerEncoding;
}

/**
 * Part `part` of `of` of an order-free search on one indexer: the blocks of the shards with
 * `shard % of = part`. The parts cover every block exactly once, and a compaction, which merges
 * blocks of one shard only, never moves entries from one part to another while they scan.
 */
export interface ScanSplit {
  part: number;
  of: number;
}

/** Searches over less data than this (8 MiB before compression) are not split. */
export const MIN_SPLIT_BYTES = 8 << 20;

/**
 * The web server's side of a condensing query, run in a worker too: the merge of the partial
 * states, the modules after the condensing one and the renderer. User code (regular
 * expressions, filters) then never runs on the HTTP event loop, the search timeout can stop it
 * (the worker is terminated), and its memory is bounded like a scan's.
 */
export interface MergeJob {
  query: string;
  start: string;
  end: string;
  now: string;
  tagNames: Array<[number, string]>;
  lookups?: Array<[string, LookupTable]>;
  limits?: Partial<QueryLimits>;
  autoextractors?: AxDefinition[];
  partials: PartialState[];
  retainEntries: boolean;
}

export type WorkerMessage =
  /** the merged, rendered result of a merge job */
  | { type: 'merged'; result: RenderResult }
  /** entries that survived the distributed part (streaming queries; may be empty) and scan progress */
  | { type: 'batch'; entries: Entry[]; encoded?: EncodedBatch; watermark: number; scanned: number; bytes: number }
  | { type: 'done'; partial: PartialState | null; scanned: number; bytes: number }
  | { type: 'error'; unavailable: boolean; message: string }
  /** the worker's thread ID, or its PostgreSQL backend's PID, once reniced (so the host may lower them further) */
  | { type: 'threads'; tid?: number; backend?: number };

export type HostMessage =
  /** start a scan (the worker is idle) */
  | { type: 'job'; id: number; job: ScanJob }
  /** merge partial states and render (the worker is idle) */
  | { type: 'merge'; id: number; job: MergeJob }
  /** the host has handled one batch of job `id` */
  | { type: 'ack'; id: number };
