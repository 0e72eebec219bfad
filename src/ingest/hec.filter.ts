import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import { SplunkCredentialError } from '../identity/splunk-credential';
import { mapError } from '../common/http/error-filter';
import { HecError } from './hec.parse';

interface HecAnswer {
  status: number;
  code: number;
  text: string;
  invalidEvent?: number;
  headers: Record<string, string>;
}

/** HEC codes for failures that are not HEC's own: 27 too large, 9 server busy, 8 internal error, else 6. */
function hecCodeFor(status: number): number {
  if (status === 413) return 27;
  if (status === 503) return 9;
  return status >= 500 ? 8 : 6;
}

function hecAnswer(err: unknown): HecAnswer {
  if (err instanceof HecError) return { status: err.status, code: err.hecCode, text: err.message, invalidEvent: err.invalidEvent, headers: {} };
  if (err instanceof SplunkCredentialError) return { status: err.status, code: err.hecCode, text: err.message, headers: {} };
  const m = mapError(err);
  return { status: m.status, code: hecCodeFor(m.status), text: m.message, headers: m.headers ?? {} };
}

/**
 * Errors of the HEC routes (the guard's credential errors included) in HEC's shape:
 * `{"text", "code"}`, `"invalid-event-number"` for a bad event of a batch, and `"Error"`.
 */
@Catch()
export class HecExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(HecExceptionFilter.name);

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request & { id?: unknown }>();
    const res = host.switchToHttp().getResponse<Response>();
    const a = hecAnswer(err);
    const requestId = req.id === undefined ? undefined : String(req.id);
    if (a.status >= 500) this.logger.error({ err, requestId, url: req.path, method: req.method }, `HEC request failed: ${(err as Error)?.message}`);
    if (res.headersSent) return void res.destroy();
    for (const [k, v] of Object.entries(a.headers)) res.setHeader(k, v);
    res.status(a.status).json({
      text: a.text,
      code: a.code,
      ...(a.invalidEvent !== undefined ? { 'invalid-event-number': a.invalidEvent } : {}),
      Error: a.text,
      ...(a.status >= 500 ? { RequestId: requestId } : {}),
    });
  }
}
