import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import { AppError, overLimit } from '../errors/app-error';
import { logUrl } from '../logging/log-url';

interface Mapped {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** PostgreSQL error codes that mean "the database is not reachable right now". */
const UNAVAILABLE_PG_CODES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08006']);
const UNAVAILABLE_NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/** Maps any thrown value to a status and a message safe to show (never SQL text or a stack). */
export function mapError(err: unknown): Mapped {
  if (err instanceof AppError) return { status: err.status, message: err.message, headers: err.headers };
  if (err instanceof HttpException) {
    // Nest wraps body-parser and multer errors; their cause says what went wrong.
    const cause = err.cause as { type?: string; name?: string } | undefined;
    if (cause?.type || cause?.name === 'MulterError') return mapError(cause);
    const status = err.getStatus();
    const body = err.getResponse();
    let message = typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? err.message);
    if (Array.isArray(message)) message = message.join('; ');
    if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.test(String(message))) message = 'Not found';
    return { status, message: String(message) };
  }
  const e = err as { type?: string; status?: number; code?: string; message?: string; name?: string; field?: string };
  // body-parser
  if (e?.type === 'entity.parse.failed') return { status: 400, message: 'Malformed JSON body' };
  // express.json and express.urlencoded, both limited by MAX_JSON_BODY (app.setup.ts).
  if (e?.type === 'entity.too.large') return { status: 413, message: overLimit('Request body', (e as { limit?: number }).limit ?? 0, 'MAX_JSON_BODY').message };
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return { status: 415, message: 'Unsupported body encoding' };
  if (e?.type === 'request.aborted') return { status: 400, message: 'Request aborted' };
  if (e?.name === 'MulterError') return mapMulter(e.code ?? '', e.field);
  if (e?.name === 'URIError') return { status: 400, message: 'Malformed URL' };
  // pg / TypeORM
  const code = (err as { code?: string; driverError?: { code?: string } })?.driverError?.code ?? e?.code;
  if (code === '23505') return { status: 409, message: 'An object with that name or ID already exists' };
  if (code === '23503') return { status: 409, message: 'The object refers to, or is referred to by, another object' };
  if (code === '22P02' || code === '22003' || code === '22021' || code === '22001') return { status: 400, message: 'Invalid value in request' };
  if (code === '57014') return { status: 503, message: 'The database took too long to answer' };
  if (code && (UNAVAILABLE_PG_CODES.has(code) || UNAVAILABLE_NET_CODES.has(code))) return { status: 503, message: 'The database is unavailable; try again shortly' };
  if (/timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/i.test(e?.message ?? '')) {
    return { status: 503, message: 'The database is unavailable; try again shortly' };
  }
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return { status: e.status, message: e.message || 'Bad request' };
  return { status: 500, message: 'Internal server error' };
}

function mapMulter(code: string, field?: string): Mapped {
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return { status: 413, message: 'Uploaded file is larger than the configured limit' };
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FILE_COUNT':
    case 'LIMIT_FIELD_COUNT':
      return { status: 413, message: 'Too many parts in the multipart body' };
    case 'LIMIT_FIELD_KEY':
    case 'LIMIT_FIELD_VALUE':
      return { status: 413, message: 'A multipart field is too large' };
    case 'LIMIT_UNEXPECTED_FILE':
      return { status: 400, message: `Unexpected file field${field ? ` "${field}"` : ''}` };
    default:
      return { status: 400, message: 'Malformed multipart body' };
  }
}

/** The one place errors become responses: `{"Error": "..."}` everywhere. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(err: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw err;
    const req = host.switchToHttp().getRequest<Request & { id?: unknown }>();
    const res = host.switchToHttp().getResponse<Response>();
    const mapped = mapError(err);
    const requestId = req.id === undefined ? undefined : String(req.id);
    if (mapped.status >= 500) {
      this.logger.error({ err, requestId, url: logUrl(req.originalUrl), method: req.method }, `request failed: ${(err as Error)?.message}`);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(mapped.headers ?? {})) res.setHeader(k, v);
    res.status(mapped.status).json(mapped.status >= 500 ? { Error: mapped.message, RequestId: requestId } : { Error: mapped.message });
  }
}
