/**
 * Messages between the search executor and its scan workers. A worker runs one job at a time and
 * is kept (with its open PostgreSQL connection) for later jobs by ScanWorkerPool.
 */
import { Entry, PartialState } from '../query';

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
  /** tag numbers matching the query's tag patterns (resolved at the web server) */
  tagIds: number[];
  fetchSize: number;
  /** batches the worker may post before waiting for an ack */
  window: number;
}

export type WorkerMessage =
  /** entries that survived the distributed part (streaming queries; may be empty) and scan progress */
  | { type: 'batch'; entries: Entry[]; watermark: number; scanned: number; bytes: number }
  | { type: 'done'; partial: PartialState | null; scanned: number; bytes: number }
  | { type: 'error'; unavailable: boolean; message: string };

export type HostMessage =
  /** start a scan (the worker is idle) */
  | { type: 'job'; id: number; job: ScanJob }
  /** the host has handled one batch of job `id` */
  | { type: 'ack'; id: number };
