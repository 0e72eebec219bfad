/**
 * The product's schedule syntax (a cron spec, scripting/scheduledsearch.md): five fields (minute,
 * hour, day of month, month, day of week, with lists, ranges, steps and names) or one of the
 * shorthands @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly. Parsed and
 * evaluated by `cron-parser` in the schedule's time zone (IANA name; empty: UTC). Seconds fields
 * and @every are refused: the shortest schedule is a minute, and SCHEDULE_MIN_INTERVAL_SECONDS
 * may ask for more.
 */
import { CronExpressionParser } from 'cron-parser';
import { refusal } from '../common/errors/app-error';

const SHORTHANDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export const MAX_SCHEDULE_CHARS = 256;

/** Whether `tz` names a time zone the runtime knows (empty: UTC). */
export function validTimezone(tz: string): boolean {
  if (tz === '') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A parsed schedule: the next slots after a time. */
export class CronSchedule {
  private constructor(
    private readonly fields: string,
    readonly timezone: string,
  ) {}

  /** Throws 400 SCHEDULE_INVALID / SCHEDULE_TIMEZONE_INVALID naming what is wrong. */
  static parse(spec: string, timezone = ''): CronSchedule {
    const text = spec.trim().replace(/\s+/g, ' ');
    if (!validTimezone(timezone)) throw refusal('SCHEDULE_TIMEZONE_INVALID', timezone.slice(0, 64));
    const fields = text.startsWith('@') ? SHORTHANDS[text.toLowerCase()] : text;
    if (fields === undefined) throw refusal('SCHEDULE_INVALID', text.slice(0, 80), `unknown shorthand (use ${Object.keys(SHORTHANDS).join(', ')})`);
    const n = fields.split(' ').length;
    if (n !== 5) throw refusal('SCHEDULE_INVALID', text.slice(0, 80), `${n} fields; a schedule has five: minute hour day-of-month month day-of-week`);
    const s = new CronSchedule(fields, timezone);
    try {
      s.expression(new Date(0)).next();
    } catch (err) {
      throw refusal('SCHEDULE_INVALID', text.slice(0, 80), String((err as Error).message ?? err).slice(0, 200));
    }
    return s;
  }

  private expression(after: Date) {
    return CronExpressionParser.parse(this.fields, { currentDate: after, tz: this.timezone || 'UTC', strict: false });
  }

  /** The first slot strictly after `after` (null: none, which five fields cannot express, but a 30 February can). */
  next(after: Date): Date | null {
    try {
      return this.expression(after).next().toDate();
    } catch {
      return null;
    }
  }

  /** Up to `n` slots strictly after `after`. */
  upcoming(after: Date, n: number): Date[] {
    const out: Date[] = [];
    try {
      const e = this.expression(after);
      while (out.length < n) out.push(e.next().toDate());
    } catch {
      // no further slot
    }
    return out;
  }

  /**
   * The shortest gap between the next 50 slots (Infinity with fewer than two): five fields repeat
   * their minutes and hours every day they match, so the closest pair shows up among the first.
   */
  shortestInterval(from: Date): number {
    const slots = this.upcoming(from, 50);
    let min = Infinity;
    for (let i = 1; i < slots.length; i++) min = Math.min(min, slots[i].getTime() - slots[i - 1].getTime());
    return min;
  }
}
