import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort, removeDataDir } from '../../src/database/embedded-postgres';

export const ADMIN_PASSWORD = 'fault-admin-password';

export type Headers = Record<string, string>;

export interface HttpResult {
  status: number;
  body: unknown;
  text: string;
  ms: number;
}

/**
 * The real service (`node <build>/dist/main.js`) as a child process, on its own port and data
 * directory. `start()` waits until `/api/test` answers; `kill()` is a SIGKILL (no shutdown hooks).
 */
export class ServiceProcess {
  child?: ChildProcess;
  port = 0;
  readonly dataDir: string;
  output = '';

  constructor(
    public databaseUrl: string,
    private readonly extraEnv: Record<string, string> = {},
  ) {
    this.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-fault-data-'));
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const build = process.env.FAULT_SERVICE_BUILD;
    if (!build) throw new Error('FAULT_SERVICE_BUILD is unset: run with -c test/faults/jest.faults.config.js');
    if (!this.port) this.port = await freePort();
    this.output = '';
    // SERVICE_NODE_ARGS: extra node flags for the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
    const nodeArgs = (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, path.join(build, 'dist', 'main.js')], {
      cwd: build,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? os.tmpdir(),
        // No URL: the service starts its own embedded PostgreSQL under DATA_DIR.
        ...(this.databaseUrl ? { DATABASE_URL: this.databaseUrl } : {}),
        DATA_DIR: this.dataDir,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        ADMIN_PASSWORD,
        JWT_SECRET: 'fault-secret-fault-secret-fault-secret!',
        BCRYPT_ROUNDS: '4',
        RETENTION_DAYS: '36500', // test data is dated from 2000 on
        LOG_LEVEL: 'warn',
        ...this.extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      this.output = (this.output + d.toString()).slice(-20000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const deadline = Date.now() + 60000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${this.output}`);
      try {
        const res = await fetch(`${this.base}/api/test`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return;
      } catch {
        /* not listening yet */
      }
      await sleep(100);
    }
    throw new Error(`service did not answer /api/test within 60 s:\n${this.output}`);
  }

  get alive(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends `signal` and waits for the exit; resolves with the exit code (null when killed by a signal). */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.start();
  }

  async dispose(): Promise<void> {
    await this.kill();
    removeDataDir(this.dataDir);
  }

  async request(method: string, url: string, opts: { headers?: Headers; json?: unknown; body?: RequestInit['body']; timeoutMs?: number } = {}): Promise<HttpResult> {
    const headers: Headers = { ...(opts.headers ?? {}) };
    let body = opts.body;
    if (opts.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.json);
    }
    const t0 = Date.now();
    const res = await fetch(this.base + url, { method, headers, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 30000) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, text, ms: Date.now() - t0 };
  }

  async login(user: string, pass: string): Promise<Headers> {
    const res = await this.request('POST', '/api/login', { json: { User: user, Pass: pass } });
    if (res.status !== 200) throw new Error(`login ${user}: ${res.status} ${res.text}`);
    return { Authorization: `Bearer ${(res.body as { JWT: string }).JWT}` };
  }

  asAdmin(): Promise<Headers> {
    return this.login('admin', ADMIN_PASSWORD);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

/** Multipart body with one `file` part (for fetch). */
export function fileForm(bytes: Buffer, name = 'blob.bin'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}
