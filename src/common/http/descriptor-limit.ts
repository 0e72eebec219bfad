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
 * Sockets past MAX_CONNECTIONS that may still be open while their refusal (503) is written and
 * closed (Node's own server.maxConnections is MAX_CONNECTIONS plus this): 1/16 of it, at least 64.
 */
export const refusalMargin = (maxConnections: number): number => Math.max(64, Math.ceil(maxConnections / 16));

/**
 * Connections the service accepts by default at an open-files limit: held connections and the
 * refusals still closing together take at most three quarters of its descriptors. The rest stay
 * for what every request needs besides its socket (database and indexer connections, the job
 * queue's, result files, worker threads, logs). Unknown or unlimited: 16,384.
 */
export function maxConnectionsFor(limit: number | undefined): number {
  if (limit === undefined || limit > 1_000_000) return 16_384;
  const budget = Math.floor(limit * 0.75);
  let cap = Math.floor((budget * 16) / 17);
  while (cap > 16 && cap + refusalMargin(cap) > budget) cap--;
  return Math.max(16, cap);
}

/** MAX_CONNECTIONS when unset: maxConnectionsFor(this process's limit). */
export const defaultMaxConnections = (): number => maxConnectionsFor(openFileLimit());
