/**
 * An error the client caused or may act on. Services throw these; the global filter turns
 * them into `{"Error": message}` with `status`. Anything else becomes a logged 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string) => new AppError(400, msg);
export const unauthorized = (msg = 'Authentication required') => new AppError(401, msg);
export const forbidden = (msg = 'Permission denied') => new AppError(403, msg);
export const notFound = (what: string) => new AppError(404, `${what} not found`);
export const conflict = (msg: string) => new AppError(409, msg);
export const payloadTooLarge = (msg: string) => new AppError(413, msg);
export const tooManyRequests = (msg: string, retryAfterSeconds: number) => new AppError(429, msg, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (msg: string) => new AppError(503, msg);
