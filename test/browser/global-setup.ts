import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import faultSetup from '../faults/global-setup';

const ROOT = path.resolve(__dirname, '../..');
const WEB = path.join(ROOT, 'web');

/** Newest modification time under the console's sources. */
function newestSource(): number {
  let newest = 0;
  const walk = (p: string) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const f of fs.readdirSync(p)) walk(path.join(p, f));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of ['src', 'public', 'index.html', 'vite.config.ts', 'package.json']) if (fs.existsSync(path.join(WEB, p))) walk(path.join(WEB, p));
  return newest;
}

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`No chromium found (tried ${candidates.join(', ')}): apt-get install -y chromium, or set CHROMIUM_PATH`);
  return found;
}

/**
 * PostgreSQL, the migrated template and a private build of the service (the fault tests' setup),
 * with a private build of the console inside it (a few seconds; runs at once never share one, and
 * it is never stale). With FAULT_PREBUILT, the console of web/dist, built when missing or older
 * than its sources.
 */
export default async function globalSetup(): Promise<void> {
  process.env.CHROMIUM_PATH = chromiumPath();
  await faultSetup();
  const build = process.env.FAULT_SERVICE_BUILD!;
  if (!process.env.FAULT_PREBUILT) {
    const out = path.join(build, 'web', 'dist');
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'pipe', env: { ...process.env, CONSOLE_OUT_DIR: out } });
    return;
  }
  const index = path.join(WEB, 'dist', 'index.html');
  if (!fs.existsSync(index) || fs.statSync(index).mtimeMs < newestSource()) {
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: ROOT, stdio: 'pipe' });
  }
}
