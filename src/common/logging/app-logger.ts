import { DynamicModule, Global, LoggerService, Module } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { IncomingMessage, ServerResponse } from 'node:http';
import pino, { Level, Logger as Pino } from 'pino';
import { logUrl } from './log-url';

type LoggedRequest = IncomingMessage & { id?: unknown; originalUrl?: string };

/**
 * The service's log: JSON lines from pino on stdout, serving as Nest's logger, each line made
 * while a request is served bound to that request (`req: {id, method, url}`). This is the part of
 * nestjs-pino the service used; its releases that support NestJS 12 require Node 22, and the
 * service runs on Node 20.
 */
export class AppLogger implements LoggerService {
  readonly root: Pino;
  private readonly requests = new AsyncLocalStorage<Pino>();

  constructor(level: string, destination?: pino.DestinationStream) {
    this.root = pino(
      {
        level,
        redact: ['req.headers.authorization', 'req.headers["service-token"]', 'req.headers.cookie', 'req.headers["sec-websocket-protocol"]'],
        serializers: {
          // Only what an access line needs; the path without its query string (HEC's ?token=).
          req: (r: LoggedRequest) => ({ id: r.id, method: r.method, url: logUrl(r.originalUrl ?? r.url) }),
          res: (r: ServerResponse) => ({ statusCode: r.headersSent ? r.statusCode : null }),
          err: pino.stdSerializers.err,
        },
      },
      destination,
    );
  }

  /** The logger of the request being served, else the root. */
  get current(): Pino {
    return this.requests.getStore() ?? this.root;
  }

  /** Runs a request's handling with a logger bound to it, for every line written meanwhile. */
  withRequest<T>(req: LoggedRequest, fn: () => T): T {
    return this.requests.run(this.root.child({ req }), fn);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /**
   * Nest's calls: `(message, ...params, context)`, where a Logger made with a context appends it;
   * `error(message, stack, context)` from Nest's own error paths. An Error or an object as the
   * message becomes the line's fields (`err` for an Error).
   */
  private write(level: Level, message: unknown, params: unknown[]): void {
    const log = this.current;
    if (!log.isLevelEnabled(level)) return;
    const last = params[params.length - 1];
    const context = typeof last === 'string' ? last : undefined;
    const rest = context === undefined ? params : params.slice(0, -1);
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (message instanceof Error) return log[level]({ ...fields, err: message }, message.message);
    if (message !== null && typeof message === 'object') return log[level]({ ...fields, ...(message as Record<string, unknown>) });
    const stack = level === 'error' && typeof rest[0] === 'string' && rest[0].includes('\n    at ') ? rest.shift() : undefined;
    if (stack !== undefined) fields.err = { message: String(message), stack };
    if (rest.length) fields.details = rest;
    log[level](fields, String(message));
  }
}

/** Provides the one AppLogger to every module (the access log middleware, Nest's logger). */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(level: string): DynamicModule {
    return { module: LoggingModule, providers: [{ provide: AppLogger, useValue: new AppLogger(level) }], exports: [AppLogger] };
  }
}
