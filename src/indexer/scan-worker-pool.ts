/**
 * Scan workers kept between searches. Starting a worker thread (a fresh isolate loading the query
 * library and `pg`) and opening its PostgreSQL connection cost about 70 ms, more than a typical
 * one-hour search itself; a finished worker therefore goes back to an idle list per indexer and
 * keeps its connection. Workers that failed, timed out or were cancelled are terminated, never
 * reused. Idle workers are unref'd (they never keep the process alive) and end after IDLE_MS.
 */
import { channel } from 'node:diagnostics_channel';
import { Worker } from 'node:worker_threads';
import { HostMessage, MergeJob, ScanJob, WorkerMessage } from './scan.protocol';
import { LONG_SEARCH_NICE, renice, SEARCH_NICE } from './search-priority';
import { startScanWorker } from './worker-host';

/** An idle worker (and its connection) ends after this long unused. */
export const IDLE_MS = 60_000;

/**
 * Instrumentation on a `node:diagnostics_channel` channel: one message per scan job handed to a
 * worker thread and per thread started, free while nobody subscribes. The e2e tests subscribe
 * (test/setup/scan-workers.ts) to prove that scans run in worker threads and that threads are reused.
 */
export const SCAN_WORKER_CHANNEL = 'search-service:scan-worker';
export type ScanWorkerEvent = { type: 'job'; key: string; threadId: number } | { type: 'start'; threadId: number };
const events = channel(SCAN_WORKER_CHANNEL);
const publish = (event: ScanWorkerEvent): void => {
  if (events.hasSubscribers) events.publish(event);
};

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
}

/** What a worker reported of its thread and PostgreSQL backend, and whether they were demoted. */
interface Threads {
  tid?: number;
  backend?: number;
  demoted: boolean;
}

export class ScanWorkerPool {
  private readonly idle = new Map<string, IdleWorker[]>();
  private readonly live = new Set<Worker>();
  private readonly threads = new WeakMap<Worker, Threads>();
  private nextJobId = 1;

  /** `maxIdlePerIndexer`: idle workers kept per indexer (more concurrent scans start new ones). */
  constructor(private readonly maxIdlePerIndexer: number) {}

  /** A worker for `key` (an indexer), reused when one is idle; `job` is posted to it. Returns the job ID. */
  run(key: string, job: ScanJob): { worker: Worker; id: number } {
    const posted = this.post(key, (id) => ({ type: 'job', id, job }));
    publish({ type: 'job', key, threadId: posted.worker.threadId });
    return posted;
  }

  /** A merge job (MergeJob) on a worker kept under `key`, as `run` does for scans. */
  merge(key: string, job: MergeJob): { worker: Worker; id: number } {
    return this.post(key, (id) => ({ type: 'merge', id, job }));
  }

  private post(key: string, message: (id: number) => HostMessage): { worker: Worker; id: number } {
    const worker = this.takeIdle(key) ?? this.start();
    worker.ref();
    const id = this.nextJobId++;
    worker.postMessage(message(id));
    return { worker, id };
  }

  /** A long search's worker (and its backend) yield to short searches: LONG_SEARCH_NICE. */
  demote(worker: Worker): void {
    const t = this.threads.get(worker);
    if (!t || t.demoted) return;
    t.demoted = true;
    for (const pid of [t.tid, t.backend]) if (pid !== undefined) renice(pid, LONG_SEARCH_NICE);
  }

  /**
   * The worker finished its job cleanly: keep it for `key` if there is room, and if a demoted
   * worker can be raised back to SEARCH_NICE (the next search may be short).
   */
  release(key: string, worker: Worker): void {
    const list = this.idle.get(key) ?? [];
    if (list.length >= this.maxIdlePerIndexer || !this.live.has(worker) || !this.restore(worker)) return this.discard(worker);
    worker.unref();
    const timer = setTimeout(() => {
      this.remove(key, worker);
      this.discard(worker);
    }, IDLE_MS);
    timer.unref();
    list.push({ worker, timer });
    this.idle.set(key, list);
  }

  /** Ends a worker that failed, was cancelled or timed out (it may be mid-scan). */
  discard(worker: Worker): void {
    this.live.delete(worker);
    void worker.terminate();
  }

  /** Ends every worker, busy or idle (shutdown). */
  async close(): Promise<void> {
    for (const list of this.idle.values()) for (const w of list) clearTimeout(w.timer);
    this.idle.clear();
    const all = [...this.live];
    this.live.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }

  private start(): Worker {
    const worker = startScanWorker();
    publish({ type: 'start', threadId: worker.threadId });
    this.live.add(worker);
    // While idle nobody else listens: a crash must not become an unhandled 'error' event.
    worker.on('error', () => undefined);
    const threads: Threads = { demoted: false };
    this.threads.set(worker, threads);
    worker.on('message', (m: WorkerMessage) => {
      if (m.type !== 'threads') return;
      if (m.tid !== undefined) {
        // A worker demoted before it reported its thread (it was still starting) is lowered now.
        threads.tid = m.tid;
        if (threads.demoted) renice(m.tid, LONG_SEARCH_NICE);
      }
      if (m.backend !== undefined) {
        // A new connection of a demoted worker starts demoted too.
        threads.backend = m.backend;
        if (threads.demoted) renice(m.backend, LONG_SEARCH_NICE);
      }
    });
    worker.on('exit', () => {
      this.live.delete(worker);
      for (const [key, list] of this.idle) if (list.some((w) => w.worker === worker)) this.remove(key, worker);
    });
    return worker;
  }

  private restore(worker: Worker): boolean {
    const t = this.threads.get(worker);
    if (!t?.demoted) return true;
    t.demoted = ![t.tid, t.backend].every((pid) => pid === undefined || renice(pid, SEARCH_NICE));
    return !t.demoted;
  }

  private takeIdle(key: string): Worker | undefined {
    const list = this.idle.get(key);
    const kept = list?.pop();
    if (!kept) return undefined;
    clearTimeout(kept.timer);
    return kept.worker;
  }

  private remove(key: string, worker: Worker): void {
    const list = this.idle.get(key) ?? [];
    const i = list.findIndex((w) => w.worker === worker);
    if (i >= 0) {
      clearTimeout(list[i].timer);
      list.splice(i, 1);
    }
  }
}
