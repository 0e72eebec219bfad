import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import { AppError, ErrorCode, refusal } from '../errors/app-error';
import { codeForStatus } from '../errors/codes';
import { logUrl } from '../logging/log-url';

interface Mapped {
  status: number;
  message: string;
  /** the catalogue code (codes.ts): the refusal's own, else the generic one of its status */
  code: ErrorCode;
  headers?: Record<string, string>;
}

const mapped = (err: AppError): Mapped => ({ status: err.status, message: err.message, code: err.code, headers: err.headers });

/** PostgreSQL error codes that mean "the database is not reachable right now". */
const UNAVAILABLE_PG_CODES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08006']);
const UNAVAILABLE_NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/** Maps any thrown value to a status, a code and a message safe to show (never SQL text or a stack). */
export function mapError(err: unknown): Mapped {
  if (err instanceof AppError) return mapped(err);
  if (err instanceof HttpException) {
    // Nest wraps body-parser and multer errors; their cause says what went wrong.
    const cause = err.cause as { type?: string; name?: string } | undefined;
    if (cause?.type || cause?.name === 'MulterError') return mapError(cause);
    const status = err.getStatus();
    const body = err.getResponse();
    let message = typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? err.message);
    if (Array.isArray(message)) message = message.join('; ');
    if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.test(String(message))) return mapped(refusal('ROUTE_NOT_FOUND'));
    return { status, message: String(message), code: codeForStatus(status) };
  }
  const e = err as { type?: string; status?: number; code?: string; message?: string; name?: string; field?: string };
  // body-parser
  if (e?.type === 'entity.parse.failed') return mapped(refusal('MALFORMED_JSON'));
  // express.json and express.urlencoded, both limited by MAX_JSON_BODY (app.setup.ts).
  if (e?.type === 'entity.too.large') return mapped(refusal('BODY_TOO_LARGE', (e as { limit?: number }).limit ?? 0, 'MAX_JSON_BODY'));
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return mapped(refusal('UNSUPPORTED_BODY_ENCODING'));
  if (e?.type === 'request.aborted') return mapped(refusal('REQUEST_ABORTED'));
  // express.json's depth check (app.setup.ts) throws the message of JSON_TOO_DEEP with status 400.
  if (e?.type === 'entity.verify.failed' && e.status === 400 && /^JSON nests deeper than \d+ levels$/.test(e.message ?? '')) {
    return { status: 400, message: e.message!, code: 'JSON_TOO_DEEP' };
  }
  if (e?.name === 'MulterError') return mapMulter(e.code ?? '', e.field);
  if (e?.name === 'URIError') return mapped(refusal('MALFORMED_URL'));
  // pg / TypeORM
  const code = (err as { code?: string; driverError?: { code?: string } })?.driverError?.code ?? e?.code;
  if (code === '23505') return mapped(refusal('ALREADY_EXISTS'));
  if (code === '23503') return mapped(refusal('REFERENCED'));
  if (code === '22P02' || code === '22003' || code === '22021' || code === '22001') return mapped(refusal('INVALID_VALUE'));
  if (code === '57014') return mapped(refusal('DATABASE_TIMEOUT'));
  if (code && (UNAVAILABLE_PG_CODES.has(code) || UNAVAILABLE_NET_CODES.has(code))) return mapped(refusal('DATABASE_UNAVAILABLE'));
  if (/timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/i.test(e?.message ?? '')) {
    return mapped(refusal('DATABASE_UNAVAILABLE'));
  }
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return { status: e.status, message: e.message || 'Bad request', code: codeForStatus(e.status) };
  return mapped(refusal('INTERNAL_ERROR'));
}

function mapMulter(code: string, field?: string): Mapped {
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return mapped(refusal('FILE_TOO_LARGE'));
    case 'LIMIT_PART_COUNT':
    case 'LIMIT_FILE_COUNT':
    case 'LIMIT_FIELD_COUNT':
      return mapped(refusal('MULTIPART_TOO_MANY_PARTS'));
    case 'LIMIT_FIELD_KEY':
    case 'LIMIT_FIELD_VALUE':
      return mapped(refusal('MULTIPART_FIELD_TOO_LARGE'));
    case 'LIMIT_UNEXPECTED_FILE':
      return mapped(refusal('MULTIPART_UNEXPECTED_FILE', field));
    default:
      return mapped(refusal('MALFORMED_MULTIPART'));
  }
}

/** The one place errors become responses: `{"Error": "...", "Code": "..."}` everywhere (a 5xx adds `RequestId`). */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(err: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw err;
    const req = host.switchToHttp().getRequest<Request & { id?: unknown }>();
    const res = host.switchToHttp().getResponse<Response>();
    const m = mapError(err);
    const requestId = req.id === undefined ? undefined : String(req.id);
    if (m.status >= 500) {
      this.logger.error({ err, requestId, url: logUrl(req.originalUrl), method: req.method }, `request failed: ${(err as Error)?.message}`);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [k, v] of Object.entries(m.headers ?? {})) res.setHeader(k, v);
    res.status(m.status).json(m.status >= 500 ? { Error: m.message, Code: m.code, RequestId: requestId } : { Error: m.message, Code: m.code });
  }
}
