import * as fs from 'node:fs';
import * as path from 'node:path';
import { MigrationInterface } from 'typeorm';

type MigrationClass = new () => MigrationInterface;

/**
 * Every migration class in this folder, in file-name order (`<epoch-ms>-<Name>.ts`).
 * Loaded by listing the folder so that a new migration needs no registration.
 */
export function loadMigrations(): MigrationClass[] {
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => /^\d{13}-[A-Za-z0-9]+\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
  const classes: MigrationClass[] = [];
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the file names are listed at run time
    const mod = require(path.join(__dirname, file)) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (typeof value === 'function') classes.push(value as MigrationClass);
  }
  return classes;
}
