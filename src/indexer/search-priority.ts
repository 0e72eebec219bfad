/**
 * CPU priority of search work (Linux nice values; threads have their own). Every scan and merge
 * thread, and the local PostgreSQL backend serving its scan, runs at SEARCH_NICE so the HTTP
 * event loop, logins and ingest keep a core while searches take the others. A search that has run
 * longer than SEARCH_DEMOTE_AFTER_MS drops to LONG_SEARCH_NICE: short searches (a dashboard
 * tile, a person's query over the last hour) then run ahead of someone's long ones, as an
 * operating system favours interactive work over batch jobs.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export const SEARCH_NICE = 10;
export const LONG_SEARCH_NICE = 19;

/** The calling thread's kernel thread ID (Linux), undefined elsewhere. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets a thread's or process's nice value; false when not allowed. Lowering a priority is always
 * allowed for one's own threads and processes; raising it back needs CAP_SYS_NICE (root) or a
 * nice rlimit, so a worker that cannot be raised back is not reused (see ScanWorkerPool.release).
 */
export function renice(pid: number, nice: number): boolean {
  try {
    setPriority(pid, nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * Who ran a long search lately: their next searches start at LONG_SEARCH_NICE at once (the
 * decay-usage rule of a time-sharing scheduler). Without it a user who loops long searches gets
 * the first SEARCH_DEMOTE_AFTER_MS of each at SEARCH_NICE, level with everyone's short ones, and
 * with a few at once keeps a core at that priority. Remembered for `memoryMs` after the last one.
 */
export class RecentLongSearches {
  private readonly last = new Map<number, number>();

  constructor(
    private readonly memoryMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** `owner`'s search has just run past SEARCH_DEMOTE_AFTER_MS. */
  ranLong(owner: number): void {
    if (this.last.size >= 100_000) for (const [k, t] of this.last) if (this.now() - t >= this.memoryMs) this.last.delete(k);
    this.last.set(owner, this.now());
  }

  /** Whether a new search of `owner` starts demoted. */
  startsLong(owner: number | undefined): boolean {
    if (owner === undefined) return false;
    const t = this.last.get(owner);
    return t !== undefined && this.now() - t < this.memoryMs;
  }
}
