/**
 * Starts scan workers. The worker entry must run from `dist/` (compiled .js) and under jest
 * (TypeScript source): an inline bootstrap requires the compiled file when it exists, otherwise it
 * registers a `.ts` require hook built on `@swc/core` (a devDependency) and requires the source.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lz4Module } from './lz4-wasm';

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
if (workerData.compiled) {
  require(workerData.entry + '.js');
} else {
  const swc = require(workerData.swc);
  require.extensions['.ts'] = function (m, filename) {
    const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      sourceMaps: 'inline',
      jsc: { parser: { syntax: 'typescript', decorators: true }, target: 'es2022', transform: { legacyDecorator: true, decoratorMetadata: true } },
      module: { type: 'commonjs' },
    });
    m._compile(out.code, filename);
  };
  require(workerData.entry + '.ts');
}
`;

const ENTRY = path.join(__dirname, 'scan.worker');
let swcPath: string | undefined;

/**
 * Starts a worker thread running `entry` (a path without its extension: `.js` from `dist/`, else
 * the `.ts` source under jest), with `data` in its `workerData` besides what the bootstrap needs.
 */
export function startWorkerThread(entry: string, data: Record<string, unknown>, heapMb: number): Worker {
  const compiled = fs.existsSync(`${entry}.js`);
  if (!compiled && !swcPath) swcPath = require.resolve('@swc/core');
  return new Worker(BOOTSTRAP, {
    eval: true,
    workerData: { ...data, entry, compiled, swc: swcPath },
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
}

/** Starts an idle scan worker; it waits for `job` messages (scan.protocol.ts). */
export function startScanWorker(): Worker {
  // The LZ4 decoder's module, assembled once in this thread (lz4-wasm.ts), when it is.
  return startWorkerThread(ENTRY, { kind: 'scan', lz4: lz4Module() }, 512);
}
