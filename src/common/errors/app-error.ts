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

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/** A byte count as people read it: `4 MiB`, `64 KiB`, `1.5 GiB`, `1000 bytes`. */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['GiB', GiB],
    ['MiB', MiB],
    ['KiB', KiB],
  ] as const) {
    if (n >= size) return `${Number((n / size).toFixed(n % size === 0 ? 0 : 1))} ${unit}`;
  }
  return `${n} bytes`;
}

/**
 * The one wording of a 413: what was too large, the limit, and the setting that changes it
 * (an environment variable; none for fixed limits), e.g. "Request body is larger than the
 * limit of 32 MiB (MAX_INGEST_BATCH_BYTES)".
 */
export const overLimit = (what: string, limit: number, setting?: string) =>
  payloadTooLarge(`${what} is larger than the limit of ${formatBytes(limit)}${setting ? ` (${setting})` : ''}`);
export const tooManyRequests = (msg: string, retryAfterSeconds: number) => new AppError(429, msg, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = (msg: string) => new AppError(503, msg);
