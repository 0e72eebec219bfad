// After `vite build`: a .gz and a .br beside every hashed asset, so the service can send them
// compressed without compressing on each request (src/console/console.setup.ts picks them).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = join(process.env.CONSOLE_OUT_DIR ?? new URL('../dist/', import.meta.url).pathname, 'assets');
let files = 0;
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const body = readFileSync(join(dir, name));
  if (body.length < 1024) continue;
  writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
  writeFileSync(join(dir, `${name}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  files++;
}
console.log(`compressed ${files} assets (gzip, brotli)`);
