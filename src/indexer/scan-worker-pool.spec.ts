import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ScanWorkerPool } from './scan-worker-pool';
import { WorkerMessage } from './scan.protocol';
import { LONG_SEARCH_NICE, SEARCH_NICE } from './search-priority';

/** The thread ID a new worker reports once it has lowered its own priority. */
const reportedTid = (w: Worker) =>
  new Promise<number>((resolve) => {
    const on = (m: WorkerMessage) => {
      if (m.type !== 'threads' || m.tid === undefined) return;
      w.off('message', on);
      resolve(m.tid);
    };
    w.on('message', on);
  });

describe('ScanWorkerPool priorities', () => {
  const pool = new ScanWorkerPool(2);
  afterAll(() => pool.close());

  it('runs workers at SEARCH_NICE, demotes a long search to LONG_SEARCH_NICE and raises it back before reuse', async () => {
    // A merge of nothing: the worker answers at once and stays alive.
    const job = { query: 'tag=x count', start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00Z', now: '2024-01-02T00:00:00Z', tagNames: [], partials: [], retainEntries: true };
    const { worker } = pool.merge('k', job);
    const tid = await reportedTid(worker);
    expect(getPriority(tid)).toBe(SEARCH_NICE);
    pool.demote(worker);
    expect(getPriority(tid)).toBe(LONG_SEARCH_NICE);
    pool.release('k', worker);
    if (process.getuid?.() === 0) {
      // Allowed to raise it back: the same worker serves the next job at SEARCH_NICE.
      expect(getPriority(tid)).toBe(SEARCH_NICE);
      expect(pool.merge('k', job).worker).toBe(worker);
    } else {
      // Not allowed: the demoted worker is ended rather than reused at the lowest priority.
      await new Promise((r) => worker.once('exit', r));
      expect(pool.merge('k', job).worker).not.toBe(worker);
    }
  });
});
