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
