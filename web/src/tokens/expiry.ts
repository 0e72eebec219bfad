/** Token expiry choices: presets counted from now, a day picked on a calendar, or never. */
import { fromInputValue, toInputValue } from '../ui/time-format';

export type ExpiryChoice = 'keep' | 'never' | '30' | '90' | '365' | 'date';

export const EXPIRY_PRESETS: Array<{ value: ExpiryChoice; label: string }> = [
  { value: 'never', label: 'Never' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '365 days' },
  { value: 'date', label: 'On a date…' },
];

const DAY = 86_400_000;

/**
 * The `expiresAt` to send: undefined to keep the current one, null for never, else an RFC 3339
 * time. A picked day (`YYYY-MM-DD`) expires at its end (23:59:59) in the person's time zone.
 * Throws a message for a missing or past day.
 */
export function expiryValue(choice: ExpiryChoice, day: string, now: Date, zone = 'local'): string | null | undefined {
  switch (choice) {
    case 'keep':
      return undefined;
    case 'never':
      return null;
    case 'date': {
      const end = /^\d{4}-\d{2}-\d{2}$/.test(day) ? fromInputValue(`${day}T23:59:59`, zone) : null;
      if (!end) throw new Error('Pick the day the token expires.');
      if (end.getTime() <= now.getTime()) throw new Error('The expiry day must be in the future.');
      return end.toISOString();
    }
    default:
      return new Date(now.getTime() + Number(choice) * DAY).toISOString();
  }
}

/** `YYYY-MM-DD` of the day after `now` in the zone: the earliest day the picker offers. */
export const tomorrow = (now: Date, zone = 'local'): string => toInputValue(new Date(now.getTime() + DAY), zone).slice(0, 10);

/** Whether a token with this expiry is past it. */
export const isExpired = (expiresAt: string | undefined, now: Date): boolean => !!expiresAt && Date.parse(expiresAt) <= now.getTime();
