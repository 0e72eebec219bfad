import { Injectable, NestMiddleware } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { AppLogger } from './app-logger';
import { logUrl } from './log-url';

type LoggedRequest = IncomingMessage & { id?: unknown; originalUrl?: string };

/** The client's `X-Request-Id` when it is a plain token of at most 64 characters, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
}

/**
 * What pino-http's middleware did for us (through nestjs-pino), without the rest of its per-request bookkeeping (a
 * second middleware to bind the context, logger lists on the request and response, three
 * listeners, pino's standard request object built for the request's logger, the access line's
 * object and message built even when `info` is off). Per request:
 * - its id (`req.id`, also the `RequestId` of a 500 answer);
 * - a logger bound to `req: {id, method, url}` for every log line made while serving it;
 * - one access line when the response ends or fails, as pino-http wrote it: `req`, `res:
 *   {statusCode}`, `responseTime`, `err` when it failed (5xx or a response error), and the
 *   message `GET /api/path 200`.
 */
@Injectable()
export class AccessLogMiddleware implements NestMiddleware {
  constructor(private readonly logger: AppLogger) {}

  use(req: LoggedRequest, res: ServerResponse, next: () => void): void {
    req.id = requestId(req);
    this.logger.withRequest(req, () => {
      const log = this.logger.current;
      const start = Date.now();
      let logged = false;
      const done = (err?: Error) => {
        if (logged) return;
        logged = true;
        res.off('close', done);
        res.off('error', done);
        if (!log.isLevelEnabled('info')) return;
        const responseTime = Date.now() - start;
        const msg = `${req.method} ${logUrl(req.originalUrl ?? req.url)} ${res.statusCode}`;
        if (err || res.statusCode >= 500) log.info({ res, err: err ?? new Error(`failed with status code ${res.statusCode}`), responseTime }, msg);
        else log.info({ res, responseTime }, msg);
      };
      res.on('close', done);
      res.on('error', done);
      next();
    });
  }
}
