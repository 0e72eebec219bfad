import { codeForStatus, CodeDetails, ERROR_CODES, ErrorCode, messageOf } from './codes';

export { formatBytes } from './bytes';
export type { ErrorCode } from './codes';

/**
 * An error the client caused or may act on. Services throw these; the global filter turns
 * them into `{"Error": message, "Code": code}` with `status`. Anything else becomes a logged 500.
 * Build them with `refusal('CODE', ...details)`: the code, status and message come from the
 * catalogue (codes.ts). `new AppError(...)` is for carrying a refusal across a thread (a worker's
 * answer keeps its status, message and code); without a code it answers the generic one of its
 * status, which only the framework's own errors should need.
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
