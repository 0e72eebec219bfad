/** Times (epoch µs) and durations (ns) for eval: Go-style duration text, RFC 3339 times. */
import { formatTs } from '../values';

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
const DURATION = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/** Parses a Go duration ("1h30m", "250ms", "-1.5s", "0") into nanoseconds, or null. */
export function parseGoDuration(text: string): number | null {
  const t = text.trim();
  if (t === '0' || t === '+0' || t === '-0') return 0;
  const m = DURATION.exec(t);
  if (!m) return null;
  let total = 0;
  for (const p of m[2].matchAll(PART)) total += Number(p[1]) * UNIT_NS[p[2]];
  return Math.round(m[1] === '-' ? -total : total);
}

function fraction(whole: number, frac: number, digits: number): string {
  const f = String(frac).padStart(digits, '0').replace(/0+$/, '');
  return f ? `${whole}.${f}` : String(whole);
}

/** Go's time.Duration.String(): "1h2m3.5s", "1.5ms", "0s". */
export function formatGoDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const u = Math.abs(Math.round(ns));
  if (u < 1e3) return `${sign}${u}ns`;
  if (u < 1e6) return `${sign}${fraction(Math.floor(u / 1e3), u % 1e3, 3)}µs`;
  if (u < 1e9) return `${sign}${fraction(Math.floor(u / 1e6), u % 1e6, 6)}ms`;
  const h = Math.floor(u / 3600e9);
  const m = Math.floor((u % 3600e9) / 60e9);
  const rest = u % 60e9;
  const s = fraction(Math.floor(rest / 1e9), rest % 1e9, 9);
  if (h > 0) return `${sign}${h}h${m}m${s}s`;
  if (m > 0) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[-+]\d{2}:?\d{2}|UTC)?$/;

/**
 * Parses RFC 3339 and close variants ("2024-01-02T03:04:05.123456Z", "2024-01-02 03:04:05",
 * "2024-01-02"; no zone means UTC) into epoch microseconds, or null.
 */
export function parseTime(text: string): number | null {
  const m = TIME.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1, 7);
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms) || Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return null;
  const frac = m[7] ? Math.floor(Number(m[7].padEnd(6, '0').slice(0, 6))) : 0;
  let offsetMin = 0;
  const zone = m[8];
  if (zone && zone !== 'Z' && zone !== 'UTC') {
    const digits = zone.replace(':', '');
    offsetMin = (zone[0] === '-' ? -1 : 1) * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  return (ms - offsetMin * 60_000) * 1000 + frac;
}

export function formatTime(us: number): string {
  return formatTs(us);
}

/** Times a JavaScript Date can hold (±8.64e15 ms). */
const MAX_TIME_US = 8.64e18;

export function isValidTime(us: number): boolean {
  return Number.isFinite(us) && Math.abs(us) <= MAX_TIME_US;
}
