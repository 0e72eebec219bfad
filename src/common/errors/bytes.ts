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
export const overLimitText = (what: string, limit: number, setting?: string): string =>
  `${what} is larger than the limit of ${formatBytes(limit)}${setting ? ` (${setting})` : ''}`;
