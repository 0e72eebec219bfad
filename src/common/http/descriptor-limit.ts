import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';

/**
 * The process's limit of open files (`ulimit -n`, RLIMIT_NOFILE) as it is now: Node raises the
 * soft limit to the hard one at start-up, so this is what the service may really open. Read from
 * `/proc/self/limits` (Linux), else from a shell's `ulimit -n` (which inherits it); undefined
 * when neither says (no limit, or none that can be read).
 */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    if (line) return toLimit(line[1]);
  } catch {
    /* not Linux */
  }
  try {
    return toLimit(execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2000 }).trim());
  } catch {
    return undefined;
  }
}

const toLimit = (raw: string): number | undefined => (/^\d+$/.test(raw) ? Number(raw) : undefined);

/**
 * Connections the service accepts by default at an open-files limit: three quarters of its
 * descriptors. The rest stay for what every request needs besides its socket (database
 * connections, result files, worker threads, logs) and for the short-lived refusals themselves.
 * Unknown or unlimited: 16,384.
 */
export function maxConnectionsFor(limit: number | undefined): number {
  if (limit === undefined || limit > 1_000_000) return 16_384;
  return Math.max(16, Math.floor(limit * 0.75));
}

/** MAX_CONNECTIONS when unset: maxConnectionsFor(this process's limit). */
export const defaultMaxConnections = (): number => maxConnectionsFor(openFileLimit());
