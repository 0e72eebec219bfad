/** Durations (`-10h`, `1h30m`, units us ms s m h d w y) and time expressions (`NOW-1h`, RFC3339). */

const UNIT_US: Record<string, number> = {
  us: 1,
  ms: 1_000,
  s: 1_000_000,
  m: 60_000_000,
  h: 3_600_000_000,
  d: 86_400_000_000,
  w: 7 * 86_400_000_000,
  y: 365 * 86_400_000_000,
};

const DURATION = /^([-+]?)((?:\d+(?:\.\d+)?(?:us|ms|s|m|h|d|w|y))+)$/;
const PART = /(\d+(?:\.\d+)?)(us|ms|s|m|h|d|w|y)/g;

/** Parses a signed duration into microseconds, or returns null when malformed. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text.trim());
  if (!m) return null;
  let total = 0;
  for (const part of m[2].matchAll(PART)) total += Number(part[1]) * UNIT_US[part[2]];
  return Math.round(m[1] === '-' ? -total : total);
}

export interface TimeAnchors {
  now: Date;
  start?: Date;
  end?: Date;
}

const ANCHORED = /^(NOW|START|END)(?:([-+])(.+))?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[-+]\d{2}:\d{2})$/;

/**
 * Validates a time expression without resolving it. Returns an error message or null.
 */
export function checkTimeExpr(text: string, quoted: boolean): string | null {
  if (quoted) return RFC3339.test(text) && !Number.isNaN(Date.parse(text)) ? null : `invalid timestamp "${text}"`;
  const a = ANCHORED.exec(text);
  if (a) return a[2] && parseDuration(a[3]) === null ? `invalid duration "${a[3]}"` : null;
  return parseDuration(text) === null ? `invalid duration "${text}"` : null;
}

/** Resolves a (previously validated) time expression, rounding down to a whole second. */
export function resolveTimeExpr(text: string, quoted: boolean, anchors: TimeAnchors): Date {
  let ms: number;
  if (quoted) {
    ms = Date.parse(text);
  } else {
    const a = ANCHORED.exec(text);
    if (a) {
      const base = a[1] === 'NOW' ? anchors.now : a[1] === 'START' ? anchors.start : anchors.end;
      const offsetUs = a[2] ? (parseDuration(a[3]) ?? 0) * (a[2] === '-' ? -1 : 1) : 0;
      ms = (base ?? anchors.now).getTime() + offsetUs / 1000;
    } else {
      ms = anchors.now.getTime() + (parseDuration(text) ?? 0) / 1000;
    }
  }
  return new Date(Math.floor(ms / 1000) * 1000);
}
