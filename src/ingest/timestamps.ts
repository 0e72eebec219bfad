/** Timestamp parsing for ingest: RFC3339 strings, timestamps found inside log lines, HEC `time`. */

import { epochMicros, fracMicros, localZone, MAX_TS_US, MIN_TS_US, parseRfc3339, utcZone, zoneMinutes } from '../common/time/rfc3339';

export { MAX_TS_US, MIN_TS_US, parseRfc3339 };

const MONTHS: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };

/** Two ASCII digits at `i` as a number, or -1. */
function twoDigits(b: Uint8Array, i: number): number {
  const x = b[i] - 48;
  const y = b[i + 1] - 48;
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : -1;
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (month 1-12). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yr = m <= 2 ? y - 1 : y;
  const era = Math.floor(yr / 400);
  const yoe = yr - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/**
 * `parseRfc3339(text)` (zone-less times in UTC) for the text in bytes `b[s..e)`, read without
 * making a string: the ingest hot path. It reads the usual forms, years 1970 to 9999, and
 * answers exactly what `parseRfc3339` answers for them; anything else (whitespace around, a leap
 * second, other years, a time out of range, any other byte) gives -1, and the caller asks
 * `parseRfc3339`, which decides.
 */
export function rfc3339FromAscii(b: Uint8Array, s: number, e: number): number {
  if (e - s < 19 || e > b.length) return -1;
  const hi = twoDigits(b, s);
  const lo = twoDigits(b, s + 2);
  const mo = twoDigits(b, s + 5);
  const d = twoDigits(b, s + 8);
  const h = twoDigits(b, s + 11);
  const mi = twoDigits(b, s + 14);
  const sec = twoDigits(b, s + 17);
  const sep = b[s + 10];
  if (hi < 0 || lo < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) return -1;
  if (b[s + 4] !== 0x2d || b[s + 7] !== 0x2d || b[s + 13] !== 0x3a || b[s + 16] !== 0x3a || (sep !== 0x54 && sep !== 0x74 && sep !== 0x20)) return -1;
  const y = hi * 100 + lo;
  if (y < 1970 || d > (mo === 2 && isLeap(y) ? 29 : MONTH_DAYS[mo - 1])) return -1;
  let p = s + 19;
  let micros = 0;
  if (p < e && (b[p] === 0x2e || b[p] === 0x2c)) {
    let k = 0;
    for (p++; p < e; p++, k++) {
      const x = b[p] - 48;
      if (x < 0 || x > 9) break;
      if (k < 6) micros = micros * 10 + x;
    }
    if (k === 0 || k > 9) return -1;
    for (; k < 6; k++) micros *= 10;
  }
  let offsetMin = 0;
  if (p < e) {
    const z = b[p];
    const left = e - p;
    if ((z === 0x5a || z === 0x7a) && left === 1) offsetMin = 0;
    else if (z === 0x2b || z === 0x2d) {
      const zh = twoDigits(b, p + 1);
      const zm = left === 6 && b[p + 3] === 0x3a ? twoDigits(b, p + 4) : left === 5 ? twoDigits(b, p + 3) : -1;
      if (zh < 0 || zm < 0) return -1;
      offsetMin = (z === 0x2d ? -1 : 1) * (zh * 60 + zm);
    } else return -1;
  }
  // The same arithmetic as epochMicros(), in the same order (µs past 2255 are not exact doubles).
  const ms = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + sec * 1000;
  const us = (ms - offsetMin * 60_000) * 1000 + micros;
  return us >= MIN_TS_US && us <= MAX_TS_US ? us : -1;
}

const LINE_PATTERNS: Array<{ re: RegExp; parse: (m: RegExpExecArray, local: boolean, now: Date) => number | null }> = [
  {
    // 2024-01-02T03:04:05.123Z, 2024-01-02 03:04:05+01:00
    re: /(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2}(?!\d))?/,
    parse: (m, local) => {
      const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
      return epochMicros(y, mo - 1, d, h, mi, s, fracMicros(m[7]), zoneMinutes(m[8], local ? localZone : utcZone, Date.UTC(y, mo - 1, d, h, mi, s)));
    },
  },
  {
    // Apache: [10/Oct/2000:13:55:36 -0700]
    re: /\[(\d{1,2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\s+([+-]\d{4}))?\]/,
    parse: (m, local) => {
      const mo = MONTHS[m[2].toLowerCase()];
      if (mo === undefined) return null;
      const [d, y, h, mi, s] = [1, 3, 4, 5, 6].map((i) => Number(m[i]));
      return epochMicros(y, mo, d, h, mi, s, 0, zoneMinutes(m[7], local ? localZone : utcZone, Date.UTC(y, mo, d, h, mi, s)));
    },
  },
  {
    // syslog (RFC3164): Jan  2 03:04:05 — the year is the current one (last year if that would be in the future)
    re: /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\b/,
    parse: (m, local, now) => {
      const mo = MONTHS[m[1].toLowerCase()];
      const [d, h, mi, s] = [2, 3, 4, 5].map((i) => Number(m[i]));
      const zone = (y: number) => (local ? localZone(Date.UTC(y, mo, d, h, mi, s)) : 0);
      let y = now.getUTCFullYear();
      let us = epochMicros(y, mo, d, h, mi, s, fracMicros(m[6]), zone(y));
      if (us !== null && us > now.getTime() * 1000 + 86_400_000_000) {
        y -= 1;
        us = epochMicros(y, mo, d, h, mi, s, fracMicros(m[6]), zone(y));
      }
      return us;
    },
  },
  {
    // Unix epoch seconds at the start of the line: 1700000000 or 1700000000.123
    re: /^(\d{10})(?:\.(\d{1,9}))?(?![\d.])/,
    parse: (m) => Number(m[1]) * 1_000_000 + fracMicros(m[2]),
  },
];

/** Epoch µs of the leftmost recognisable timestamp in a line, or null. */
export function timestampInLine(line: string, assumeLocal: boolean, now: Date): number | null {
  let best: { at: number; us: number } | undefined;
  for (const p of LINE_PATTERNS) {
    const m = p.re.exec(line);
    if (!m || (best && m.index >= best.at)) continue;
    const us = p.parse(m, assumeLocal, now);
    if (us !== null) best = { at: m.index, us };
  }
  return best?.us ?? null;
}

/** HEC `time`: epoch seconds (float; ms / µs detected by magnitude), numeric string, or RFC3339. */
export function hecTime(v: unknown): number | null {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim())) n = Number(v);
  else if (typeof v === 'string') return parseRfc3339(v);
  else return null;
  if (!Number.isFinite(n) || n < 0) return null;
  let us: number;
  if (n >= 1e14) us = Math.round(n);
  else if (n >= 1e11) us = Math.round(n * 1000);
  else us = Math.round(n * 1_000_000);
  return us <= MAX_TS_US ? us : null;
}
