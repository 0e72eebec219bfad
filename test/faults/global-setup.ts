import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import rootSetup from '../setup/global-setup';

/**
 * The root setup (PostgreSQL + migrated template), then a private build of the service:
 * `tsc -p tsconfig.build.json` into `<tmp>/dist` (never the shared `dist/`, so it cannot race
 * another build), with `package.json` beside it as `info.controller` expects (`../../package.json`).
 */
export default async function globalSetup(): Promise<void> {
  await rootSetup();
  if (process.env.FAULT_PREBUILT) {
    // A build made beforehand (`<dir>/dist/main.js`, `<dir>/package.json`, `<dir>/node_modules`): used as is, never removed.
    process.env.FAULT_SERVICE_BUILD = path.resolve(process.env.FAULT_PREBUILT);
    return;
  }
  const root = path.resolve(__dirname, '../..');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'search-fault-build-'));
  const tsc = require.resolve('typescript/bin/tsc');
  try {
    execFileSync(
      process.execPath,
      [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(out, 'dist'), '--incremental', 'false', '--tsBuildInfoFile', 'null', '--sourceMap', 'false'],
      {
        cwd: root,
        stdio: 'pipe',
      },
    );
  } catch (err) {
    // tsc emits despite type errors; only a missing entry point is fatal.
    const e = err as { stdout?: Buffer };
    if (!fs.existsSync(path.join(out, 'dist', 'main.js'))) throw new Error(`build failed:\n${e.stdout?.toString() ?? err}`, { cause: err });
    process.stderr.write(`fault tests: tsc reported errors, running the emitted build anyway:\n${e.stdout?.toString().slice(0, 2000)}\n`);
  }
  fs.copyFileSync(path.join(root, 'package.json'), path.join(out, 'package.json'));
  // The build resolves its dependencies from the project's node_modules.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  process.env.FAULT_SERVICE_BUILD = out;
}
