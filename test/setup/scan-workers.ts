import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { SCAN_WORKER_CHANNEL, ScanWorkerEvent } from '../../src/indexer/scan-worker-pool';

/** What the scan worker pools of this process did since `watchScanWorkers()` (read the counts as before/after). */
export interface ScanWorkerWatch {
  /** Scan jobs handed to worker threads. */
  readonly jobs: number;
  /** Worker threads started (a reused thread starts nothing). */
  readonly workersStarted: number;
  /** The thread ID of every scan job, in order. */
  readonly jobThreads: readonly number[];
}

/**
 * Counts scan jobs and worker starts through the pool's diagnostics channel. Call it in a test
 * file (top level or a describe): it subscribes now and unsubscribes after the file's tests.
 */
export function watchScanWorkers(): ScanWorkerWatch {
  const seen = { jobs: 0, workersStarted: 0, jobThreads: [] as number[] };
  const onEvent = (message: unknown): void => {
    const e = message as ScanWorkerEvent;
    if (e.type === 'start') seen.workersStarted++;
    else {
      seen.jobs++;
      seen.jobThreads.push(e.threadId);
    }
  };
  subscribe(SCAN_WORKER_CHANNEL, onEvent);
  afterAll(() => void unsubscribe(SCAN_WORKER_CHANNEL, onEvent));
  return seen;
}
