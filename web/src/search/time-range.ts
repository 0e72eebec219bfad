/** Time ranges of a search: a relative preset ("last 15 minutes") or an absolute start and end. */

export interface Preset {
  id: string;
  label: string;
  ms: number;
}

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export const PRESETS: Preset[] = [
  { id: '15m', label: 'Last 15 minutes', ms: 15 * MIN },
  { id: '1h', label: 'Last hour', ms: HOUR },
  { id: '4h', label: 'Last 4 hours', ms: 4 * HOUR },
  { id: '12h', label: 'Last 12 hours', ms: 12 * HOUR },
  { id: '24h', label: 'Last 24 hours', ms: DAY },
  { id: '7d', label: 'Last 7 days', ms: 7 * DAY },
  { id: '30d', label: 'Last 30 days', ms: 30 * DAY },
];

export type TimeRange = { kind: 'relative'; preset: string } | { kind: 'absolute'; start: Date; end: Date };

export const presetOf = (id: string): Preset | undefined => PRESETS.find((p) => p.id === id);

export function resolveRange(r: TimeRange, now = new Date()): { start: Date; end: Date } {
  if (r.kind === 'absolute') return { start: r.start, end: r.end };
  const p = presetOf(r.preset) ?? PRESETS[1];
  return { start: new Date(now.getTime() - p.ms), end: now };
}

/** URL form: `t=15m`, or `from=<ISO>&to=<ISO>`. */
export function rangeToParams(r: TimeRange, params: URLSearchParams): void {
  params.delete('t');
  params.delete('from');
  params.delete('to');
  if (r.kind === 'relative') params.set('t', r.preset);
  else {
    params.set('from', r.start.toISOString());
    params.set('to', r.end.toISOString());
  }
}

export function rangeFromParams(params: URLSearchParams, fallback: TimeRange): TimeRange {
  const t = params.get('t');
  if (t && presetOf(t)) return { kind: 'relative', preset: t };
  const from = Date.parse(params.get('from') ?? '');
  const to = Date.parse(params.get('to') ?? '');
  if (Number.isFinite(from) && Number.isFinite(to) && from < to) return { kind: 'absolute', start: new Date(from), end: new Date(to) };
  return fallback;
}

/** Bucket width of the histogram: the smallest round width giving at most `max` buckets. */
export function bucketWidth(spanMs: number, max = 90): { ms: number; text: string } {
  const s = 1000;
  const widths: Array<[number, string]> = [
    [s, '1s'],
    [2 * s, '2s'],
    [5 * s, '5s'],
    [10 * s, '10s'],
    [15 * s, '15s'],
    [30 * s, '30s'],
    [MIN, '1m'],
    [2 * MIN, '2m'],
    [5 * MIN, '5m'],
    [10 * MIN, '10m'],
    [15 * MIN, '15m'],
    [30 * MIN, '30m'],
    [HOUR, '1h'],
    [2 * HOUR, '2h'],
    [3 * HOUR, '3h'],
    [6 * HOUR, '6h'],
    [12 * HOUR, '12h'],
    [DAY, '1d'],
    [2 * DAY, '2d'],
    [7 * DAY, '7d'],
  ];
  const hit = widths.find(([ms]) => spanMs / ms <= max);
  if (hit) return { ms: hit[0], text: hit[1] };
  const days = Math.ceil(spanMs / max / DAY);
  return { ms: days * DAY, text: `${days}d` };
}
