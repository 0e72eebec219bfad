import { LoggerService, LogLevel } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import pino, { Logger as Pino } from 'pino';

/** Nest's start-up chatter: a line per module, controller and route (about 300). */
const CHATTER = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * The app's logger, with Nest's start-up chatter at debug level: at `LOG_LEVEL=info` the first
 * start shows what an operator needs (the admin password, the ready block), not the route table.
 */
export class QuietStartupLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && CHATTER.has(context)) return void this.inner.debug?.(message, ...rest);
    this.inner.log(message, ...rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...rest);
  }
}

/** Nest's own logger levels for a LOG_LEVEL (before the app's pino logger takes over). */
export function nestLogLevels(level: string): LogLevel[] {
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  const upTo = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5, silent: -1 }[level] ?? 3;
  return order.slice(0, upTo + 1);
}

/**
 * The block that ends the start-up: where the service is, who signs in first, and where that
 * account's password is (the generated one's file, ADMIN_PASSWORD, or neither any more).
 */
export function readyBlock(opts: { host: string; port: number; dataDir: string; adminPasswordSet: boolean }): string {
  const host = ['0.0.0.0', '::', ''].includes(opts.host) ? 'localhost' : opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const file = path.join(opts.dataDir, 'admin-password');
  const password = fs.existsSync(file) ? `in ${file}` : opts.adminPasswordSet ? 'ADMIN_PASSWORD (as it was at the first start)' : `the one admin set (no ${file} here)`;
  return ['', `Search service ready: http://${host}:${opts.port}/`, `  user:     admin`, `  password: ${password}`, ''].join('\n') + '\n';
}

/**
 * Writes `text` to the log's own output, after the lines logged so far: pino writes them
 * asynchronously, so a plain stdout write would land in the middle of them.
 */
export function printAfterLogs(log: Pino, text: string): void {
  (log as unknown as Record<symbol, { write(s: string): unknown }>)[pino.symbols.streamSym].write(text);
}
