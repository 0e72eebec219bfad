import { codeForStatus, CodeDetails, ERROR_CODES, ErrorCode, messageOf } from './codes';
import { overLimitText } from './bytes';

export { formatBytes } from './bytes';
export type { ErrorCode } from './codes';

/**
 * An error the client caused or may act on. Services throw these; the global filter turns
 * them into `{"Error": message, "Code": code}` with `status`. Anything else becomes a logged 500.
 * Build them with `refusal('CODE', ...details)`: the code, status and message come from the
 * catalogue (codes.ts). One built the old way (`new AppError(status, message)` or a helper
 * below) answers the generic code of its status until it is converted.
 */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    code?: ErrorCode,
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code ?? codeForStatus(status);
  }

  /** Adds `Retry-After` (whole seconds, at least 1); for 429 and 503. */
  retryAfter(seconds: number): this {
    this.headers['Retry-After'] = String(Math.max(1, Math.ceil(seconds)));
    return this;
  }
}

/** The refusal `code` of the catalogue, with the details its message names. */
export function refusal<C extends ErrorCode>(code: C, ...details: CodeDetails<C>): AppError {
  return new AppError(ERROR_CODES[code].status, messageOf(code, ...details), {}, code);
}

// The helpers below predate codes: each answers the generic code of its status. Use refusal().
export const badRequest = (msg: string) => new AppError(400, msg);
export const unauthorized = (msg = 'Authentication required') => new AppError(401, msg);
export const forbidden = (msg = 'Permission denied') => new AppError(403, msg);
export const notFound = (what: string) => new AppError(404, `${what} not found`);
export const conflict = (msg: string) => new AppError(409, msg);
export const payloadTooLarge = (msg: string) => new AppError(413, msg);

/**
 * The one wording of a 413: what was too large, the limit, and the setting that changes it
 * (an environment variable; none for fixed limits), e.g. "Request body is larger than the
 * limit of 32 MiB (MAX_INGEST_BATCH_BYTES)".
 */
export const overLimit = (what: string, limit: number, setting?: string) => payloadTooLarge(overLimitText(what, limit, setting));
export const tooManyRequests = (msg: string, retryAfterSeconds: number) => new AppError(429, msg).retryAfter(retryAfterSeconds);
export const serviceUnavailable = (msg: string) => new AppError(503, msg);
