/** Timestamps shown in the person's time zone ('local' = the browser's). */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone === 'local' ? undefined : zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      fractionalSecondDigits: 3,
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  return f;
}

function parts(d: Date, zone: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(d)) out[p.type] = p.value;
  return out;
}

/** `2024-05-01 13:04:05.123` in the zone. */
export function formatTime(d: Date | string, zone = 'local'): string {
  const date = typeof d === 'string' ? new Date(d) : d;
  if (Number.isNaN(date.getTime())) return String(d);
  const p = parts(date, zone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}.${p.fractionalSecond}`;
}

/** Value for <input type="datetime-local" step="1"> showing `d` in the zone. */
export function toInputValue(d: Date, zone = 'local'): string {
  const p = parts(d, zone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** The instant a wall-clock `YYYY-MM-DDTHH:mm[:ss]` names in the zone (null when malformed). */
export function fromInputValue(v: string, zone = 'local'): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  if (zone === 'local') {
    const local = new Date(y, mo - 1, d, h, mi, s);
    return Number.isNaN(local.getTime()) ? null : local;
  }
  // Guess UTC, then correct by the zone's offset at that instant (twice, for DST edges).
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  let t = wall;
  for (let i = 0; i < 2; i++) {
    const p = parts(new Date(t), zone);
    const shown = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    t += wall - shown;
  }
  return new Date(t);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const counts = new Intl.NumberFormat('en-US');
export const formatCount = (n: number): string => counts.format(n);

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
