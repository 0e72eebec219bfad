/**
 * The service's timestamps: the range it accepts and RFC3339 / ISO-8601 text read to epoch µs. Ingest
 * (src/ingest/timestamps.ts: log lines, HEC `time`, the byte-level fast path) and search ranges both read them.
 */

/** Accepted range: 1970-01-01 .. 9999-12-31 (UTC), in epoch µs. */
export const MIN_TS_US = 0;
export const MAX_TS_US = Date.UTC(9999, 11, 31, 23, 59, 59, 999) * 1000;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|z|[+-]\d{2}:?\d{2})?$/;

/** Fractional seconds (up to 9 digits) as µs, truncated. */
export function fracMicros(frac: string | undefined): number {
  return frac ? Number(frac.padEnd(6, '0').slice(0, 6)) : 0;
}

/** A zone suffix (`Z`, `+hh:mm`, `-hhmm`) as minutes east of UTC; none: `localFallback`. */
export function zoneMinutes(zone: string | undefined, localFallback: (utcMs: number) => number, utcMs: number): number {
  if (!zone) return localFallback(utcMs);
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}

export const utcZone = () => 0;
/** Offset (minutes east of UTC) of the server's local zone at a wall-clock time given as if it were UTC. */
export const localZone = (wallMs: number) => -new Date(wallMs + new Date(wallMs).getTimezoneOffset() * 60_000).getTimezoneOffset();

/** Epoch µs of a wall-clock time (month 0-11) at `offsetMin` minutes east of UTC; null for no such date or one out of range. */
export function epochMicros(y: number, mo: number, d: number, h: number, mi: number, s: number, micros: number, offsetMin: number): number | null {
  if (mo < 0 || mo > 11 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return null;
  const ms = Date.UTC(y, mo, d, h, mi, Math.min(s, 59));
  const check = new Date(ms);
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo) return null; // 31 Feb
  const us = (ms - offsetMin * 60_000) * 1000 + micros;
  return us >= MIN_TS_US && us <= MAX_TS_US ? us : null;
}

/** RFC3339 / ISO-8601 timestamp (nanoseconds truncated to µs) -> epoch µs, or null. No zone: UTC. */
export function parseRfc3339(text: string, assumeLocal = false): number | null {
  const m = RFC3339.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  return epochMicros(y, mo - 1, d, h, mi, s, fracMicros(m[7]), zoneMinutes(m[8], assumeLocal ? localZone : utcZone, wall));
}
