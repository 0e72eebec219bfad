/**
 * Go's time layouts ("Mon Jan 2 15:04:05 MST 2006") for the `time` module: formatting an instant
 * in a time zone, parsing text with a layout, and trying many layouts as the product's timegrinder does.
 * Times are epoch microseconds (the service's precision); zones are tz database names (Intl).
 */

type Chunk =
  | { lit: string }
  | {
      std:
        | 'January'
        | 'Jan'
        | 'Monday'
        | 'Mon'
        | 'MST'
        | '01'
        | '02'
        | '03'
        | '04'
        | '05'
        | '06'
        | '002'
        | '1'
        | '15'
        | '2006'
        | '2'
        | '_2'
        | '__2'
        | '3'
        | '4'
        | '5'
        | 'PM'
        | 'pm'
        | 'tz';
      /** numeric zones: the layout text (-0700, Z07:00 ...) */
      zone?: string;
    }
  | { frac: '0' | '9'; digits: number; sep: string };

const ZONES = ['-070000', '-07:00:00', '-0700', '-07:00', '-07', 'Z070000', 'Z07:00:00', 'Z0700', 'Z07:00', 'Z07'];
const isDigit = (s: string, i: number) => i < s.length && s[i] >= '0' && s[i] <= '9';

/** Splits a layout into literal text and Go's standard chunks (time/format.go nextStdChunk). */
export function parseLayout(layout: string): Chunk[] {
  const out: Chunk[] = [];
  let lit = '';
  const push = (c: Chunk) => {
    if (lit) out.push({ lit });
    lit = '';
    out.push(c);
  };
  let i = 0;
  const starts = (s: string) => layout.startsWith(s, i);
  while (i < layout.length) {
    const c = layout[i];
    let std: string | undefined;
    if (c === 'J' && starts('Jan')) std = starts('January') ? 'January' : 'Jan';
    else if (c === 'M' && starts('Mon')) std = starts('Monday') ? 'Monday' : 'Mon';
    else if (c === 'M' && starts('MST')) std = 'MST';
    else if (c === '0' && starts('002')) std = '002';
    else if (c === '0' && i + 1 < layout.length && layout[i + 1] >= '1' && layout[i + 1] <= '6') std = layout.slice(i, i + 2);
    else if (c === '1') std = starts('15') ? '15' : '1';
    else if (c === '2') std = starts('2006') ? '2006' : '2';
    else if (c === '_' && starts('_2')) {
      if (starts('_2006')) {
        lit += '_';
        i++;
        continue;
      }
      std = '_2';
    } else if (c === '_' && starts('__2')) std = '__2';
    else if (c === '3' || c === '4' || c === '5') std = c;
    else if (c === 'P' && starts('PM')) std = 'PM';
    else if (c === 'p' && starts('pm')) std = 'pm';
    else if (c === '-' || c === 'Z') {
      const z = ZONES.find((x) => x[0] === c && starts(x));
      if (z) {
        push({ std: 'tz', zone: z });
        i += z.length;
        continue;
      }
    } else if ((c === '.' || c === ',') && (layout[i + 1] === '0' || layout[i + 1] === '9')) {
      const ch = layout[i + 1];
      let j = i + 1;
      while (j < layout.length && layout[j] === ch) j++;
      if (!isDigit(layout, j)) {
        push({ frac: ch as '0' | '9', digits: j - i - 1, sep: c });
        i = j;
        continue;
      }
    }
    if (std) {
      push({ std: std as 'Jan' });
      i += std.length;
    } else {
      lit += c;
      i++;
    }
  }
  if (lit) out.push({ lit });
  return out;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Checks a time zone name (false when Intl does not know it). */
export function validZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const partsCache = new Map<string, Intl.DateTimeFormat>();
function wallFormat(zone: string): Intl.DateTimeFormat {
  let f = partsCache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsCache.set(zone, f);
  }
  return f;
}

/** Offset of the zone from UTC at an instant, in seconds. */
export function zoneOffset(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  const p: Record<string, number> = {};
  for (const x of wallFormat(zone).formatToParts(new Date(Math.floor(ms / 1000) * 1000))) if (x.type !== 'literal') p[x.type] = Number(x.value);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour === 24 ? 0 : p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 1000);
}

const nameCache = new Map<string, Intl.DateTimeFormat>();

/** The zone's abbreviation at an instant (CST, CET...), else Go's numeric form (+03, -0930). */
export function zoneAbbreviation(zone: string, ms: number, offset: number): string {
  if (zone === 'UTC' || zone === 'Etc/UTC') return 'UTC';
  for (const locale of ['en-US', 'en-GB']) {
    const key = `${locale} ${zone}`;
    let f = nameCache.get(key);
    if (!f) nameCache.set(key, (f = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })));
    const name = f.formatToParts(new Date(ms)).find((x) => x.type === 'timeZoneName')?.value;
    if (name && /^[A-Z]{2,5}$/.test(name)) return name;
  }
  const a = Math.abs(offset);
  const hh = String(Math.floor(a / 3600)).padStart(2, '0');
  const mm = Math.floor((a % 3600) / 60);
  return `${offset < 0 ? '-' : '+'}${hh}${mm ? String(mm).padStart(2, '0') : ''}`;
}

const pad = (n: number, w: number, ch = '0') => String(n).padStart(w, ch);

/** Formats epoch microseconds with a Go layout in a zone. */
export function formatGoTime(us: number, layout: Chunk[], zone: string): string {
  const ms = Math.floor(us / 1000);
  const offset = zoneOffset(zone, ms);
  const wall = new Date(Math.floor(us / 1_000_000) * 1000 + offset * 1000);
  const [Y, M, D, h, m, s] = [wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate(), wall.getUTCHours(), wall.getUTCMinutes(), wall.getUTCSeconds()];
  const micro = us - Math.floor(us / 1_000_000) * 1_000_000;
  const yday = Math.floor((Date.UTC(Y, M, D) - Date.UTC(Y, 0, 1)) / 86_400_000) + 1;
  let out = '';
  for (const c of layout) {
    if ('lit' in c) {
      out += c.lit;
      continue;
    }
    if ('frac' in c) {
      const nine = `${pad(micro, 6)}000`; // nanoseconds
      let d = nine.slice(0, Math.min(c.digits, 9)).padEnd(c.digits, '0');
      if (c.frac === '9') d = d.replace(/0+$/, '');
      if (c.frac === '0' || d) out += c.sep + d;
      continue;
    }
    switch (c.std) {
      case 'January':
        out += MONTHS[M];
        break;
      case 'Jan':
        out += MONTHS[M].slice(0, 3);
        break;
      case 'Monday':
        out += DAYS[wall.getUTCDay()];
        break;
      case 'Mon':
        out += DAYS[wall.getUTCDay()].slice(0, 3);
        break;
      case 'MST':
        out += zoneAbbreviation(zone, ms, offset);
        break;
      case '01':
        out += pad(M + 1, 2);
        break;
      case '1':
        out += String(M + 1);
        break;
      case '02':
        out += pad(D, 2);
        break;
      case '2':
        out += String(D);
        break;
      case '_2':
        out += pad(D, 2, ' ');
        break;
      case '002':
        out += pad(yday, 3);
        break;
      case '__2':
        out += pad(yday, 3, ' ');
        break;
      case '2006':
        out += pad(Y, 4);
        break;
      case '06':
        out += pad(Y % 100, 2);
        break;
      case '15':
        out += pad(h, 2);
        break;
      case '03':
        out += pad(h % 12 || 12, 2);
        break;
      case '3':
        out += String(h % 12 || 12);
        break;
      case '04':
        out += pad(m, 2);
        break;
      case '4':
        out += String(m);
        break;
      case '05':
        out += pad(s, 2);
        break;
      case '5':
        out += String(s);
        break;
      case 'PM':
        out += h >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += h >= 12 ? 'pm' : 'am';
        break;
      case 'tz':
        out += formatZone(c.zone!, offset);
        break;
    }
  }
  return out;
}

function formatZone(layout: string, offset: number): string {
  if (layout[0] === 'Z' && offset === 0) return 'Z';
  const a = Math.abs(offset);
  const [hh, mm, ss] = [pad(Math.floor(a / 3600), 2), pad(Math.floor((a % 3600) / 60), 2), pad(a % 60, 2)];
  const sign = offset < 0 ? '-' : '+';
  const body = layout.slice(1);
  if (body === '07') return sign + hh;
  if (body === '0700') return sign + hh + mm;
  if (body === '07:00') return `${sign}${hh}:${mm}`;
  if (body === '070000') return sign + hh + mm + ss;
  return `${sign}${hh}:${mm}:${ss}`;
}

/** Epoch µs of a wall-clock time in a zone (the earlier instant when the clock repeats). */
function fromWall(zone: string, y: number, mo: number, d: number, h: number, mi: number, s: number, micro: number): number {
  const wall = Date.UTC(y, mo, d, h, mi, s);
  let guess = wall - zoneOffset(zone, wall) * 1000;
  guess = wall - zoneOffset(zone, guess) * 1000;
  return guess * 1000 + micro;
}

const lookupName = (v: string, i: number, names: string[], len?: number): [number, number] | undefined => {
  for (let k = 0; k < names.length; k++) {
    const n = len ? names[k].slice(0, len) : names[k];
    if (v.slice(i, i + n.length).toLowerCase() === n.toLowerCase()) return [k, n.length];
  }
  return undefined;
};

/**
 * Parses text with a layout, as Go's time.ParseInLocation: the zone applies when the text has no
 * offset of its own; a missing year is `defaultYear`. Undefined when the text does not match (all of it).
 */
export function parseGoTime(text: string, layout: Chunk[], zone: string, defaultYear: number): number | undefined {
  let i = 0;
  let [year, month, day, hour, min, sec, micro] = [defaultYear, 0, 1, 0, 0, 0, 0];
  let pm: boolean | undefined;
  let offset: number | undefined;
  let yday: number | undefined;
  const num = (min1: number, max: number): number | undefined => {
    let j = i;
    while (j < text.length && j - i < max && isDigit(text, j)) j++;
    if (j - i < min1) return undefined;
    const n = Number(text.slice(i, j));
    i = j;
    return n;
  };
  const frac = (): boolean => {
    if ((text[i] === '.' || text[i] === ',') && isDigit(text, i + 1)) {
      let j = i + 1;
      while (isDigit(text, j)) j++;
      micro = Math.floor(Number(`0.${text.slice(i + 1, j)}`) * 1e6 + 1e-7);
      i = j;
      return true;
    }
    return false;
  };
  for (let k = 0; k < layout.length; k++) {
    const c = layout[k];
    if ('lit' in c) {
      // Go lets a run of spaces in the layout or the text match any run of spaces
      if (/^\s+$/.test(c.lit) && /\s/.test(text[i] ?? '')) {
        while (/\s/.test(text[i] ?? '')) i++;
        continue;
      }
      if (!text.startsWith(c.lit, i)) return undefined;
      i += c.lit.length;
      continue;
    }
    if ('frac' in c) {
      if (!frac() && c.frac === '0') return undefined;
      continue;
    }
    let n: number | undefined;
    switch (c.std) {
      case 'January':
      case 'Jan': {
        const r = lookupName(text, i, MONTHS, c.std === 'Jan' ? 3 : undefined);
        if (!r) return undefined;
        month = r[0];
        i += r[1];
        break;
      }
      case 'Monday':
      case 'Mon': {
        const r = lookupName(text, i, DAYS, c.std === 'Mon' ? 3 : undefined);
        if (!r) return undefined;
        i += r[1];
        break;
      }
      case 'MST': {
        const m = /^(UTC|GMT|[A-Z]{3,5})([+-]\d{1,2})?/.exec(text.slice(i));
        if (!m) return undefined;
        i += m[0].length;
        if (m[1] === 'UTC' || m[1] === 'GMT') offset = (m[2] ? Number(m[2]) : 0) * 3600;
        break;
      }
      case '01':
      case '1':
        n = c.std === '01' ? num(2, 2) : num(1, 2);
        if (n === undefined || n < 1 || n > 12) return undefined;
        month = n - 1;
        break;
      case '02':
      case '2':
      case '_2':
        if (c.std === '_2' && text[i] === ' ') i++;
        n = c.std === '02' ? num(2, 2) : num(1, 2);
        if (n === undefined || n < 1 || n > 31) return undefined;
        day = n;
        break;
      case '002':
      case '__2':
        while (c.std === '__2' && text[i] === ' ') i++;
        n = c.std === '002' ? num(3, 3) : num(1, 3);
        if (n === undefined || n < 1 || n > 366) return undefined;
        yday = n;
        break;
      case '2006':
        n = num(4, 4);
        if (n === undefined) return undefined;
        year = n;
        break;
      case '06':
        n = num(2, 2);
        if (n === undefined) return undefined;
        year = n >= 69 ? 1900 + n : 2000 + n;
        break;
      case '15':
        n = num(1, 2);
        if (n === undefined || n > 23) return undefined;
        hour = n;
        break;
      case '03':
      case '3':
        n = c.std === '03' ? num(2, 2) : num(1, 2);
        if (n === undefined || n < 1 || n > 12) return undefined;
        hour = n % 12;
        break;
      case '04':
      case '4':
        n = c.std === '04' ? num(2, 2) : num(1, 2);
        if (n === undefined || n > 59) return undefined;
        min = n;
        break;
      case '05':
      case '5':
        n = c.std === '05' ? num(2, 2) : num(1, 2);
        if (n === undefined || n > 60) return undefined;
        sec = n;
        // Go reads fractional seconds after the seconds even when the layout has none
        if (!(layout[k + 1] && 'frac' in layout[k + 1])) frac();
        break;
      case 'PM':
      case 'pm': {
        const t = text.slice(i, i + 2).toUpperCase();
        if (t !== 'AM' && t !== 'PM') return undefined;
        pm = t === 'PM';
        i += 2;
        break;
      }
      case 'tz': {
        if (c.zone![0] === 'Z' && text[i] === 'Z') {
          offset = 0;
          i++;
          break;
        }
        const m = /^([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?/.exec(text.slice(i));
        if (!m) return undefined;
        offset = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0));
        i += m[0].length;
        break;
      }
    }
  }
  if (i !== text.length) return undefined;
  if (pm !== undefined && pm) hour += 12;
  if (yday !== undefined) {
    const d = new Date(Date.UTC(year, 0, yday));
    if (d.getUTCFullYear() !== year) return undefined;
    [month, day] = [d.getUTCMonth(), d.getUTCDate()];
  }
  const check = new Date(Date.UTC(year, month, day));
  if (check.getUTCMonth() !== month || check.getUTCDate() !== day) return undefined; // Feb 30
  if (offset !== undefined) return (Date.UTC(year, month, day, hour, min, sec) - offset * 1000) * 1000 + micro;
  return fromWall(zone, year, month, day, hour, min, sec, micro);
}

/** The layouts tried, in order, when no -iformat is given (the formats timegrinder knows that logs use most). */
const GRINDER = [
  '2006-01-02T15:04:05Z07:00',
  '2006-01-02T15:04:05',
  '2006-01-02 15:04:05Z07:00',
  '2006-01-02 15:04:05 Z07:00',
  '2006-01-02 15:04:05 -0700',
  '2006-01-02 15:04:05 MST',
  '2006-01-02 15:04:05',
  '2006/01/02 15:04:05',
  '2006-01-02',
  'Mon, 02 Jan 2006 15:04:05 MST',
  'Mon, 02 Jan 2006 15:04:05 -0700',
  'Mon, 2 Jan 2006 15:04:05 -0700',
  'Monday, 02-Jan-06 15:04:05 MST',
  'Mon Jan _2 15:04:05 2006',
  'Mon Jan _2 15:04:05 MST 2006',
  'Mon Jan _2 15:04:05 2006 MST',
  'Mon Jan 02 15:04:05 -0700 2006',
  '02/Jan/2006:15:04:05 -0700',
  '02 Jan 06 15:04 MST',
  '02 Jan 06 15:04 -0700',
  'Jan _2 2006 15:04:05',
  'Jan _2 15:04:05',
  '01/02/2006 15:04:05',
  '01/02/2006 03:04:05 PM',
  '1/2/2006 3:04:05 PM',
  '20060102150405',
].map(parseLayout);

/** Tries epoch numbers (seconds, milliseconds, microseconds or nanoseconds by their digits) then the layouts above. */
export function grindTime(text: string, zone: string, defaultYear: number): number | undefined {
  const s = text.trim();
  const epoch = /^(\d{9,10}|\d{12,13}|\d{15,16}|\d{18,19})(?:\.(\d+))?$/.exec(s);
  if (epoch) {
    const digits = epoch[1].length;
    const whole = BigInt(epoch[1]);
    const fraction = epoch[2] ? Number(`0.${epoch[2]}`) : 0;
    if (digits <= 10) return Number(whole) * 1_000_000 + Math.floor(fraction * 1e6);
    if (digits <= 13) return Number(whole) * 1000 + Math.floor(fraction * 1000);
    if (digits <= 16) return Number(whole);
    return Number(whole / 1000n);
  }
  for (const l of GRINDER) {
    const t = parseGoTime(s, l, zone, defaultYear);
    if (t !== undefined) return t;
  }
  return undefined;
}
