/** The console's own settings, kept in the user's preferences blob under the key `console`. */
import { ThemePref } from '../api/types';

export interface ConsolePrefs {
  theme: ThemePref;
  /** 'local' (the browser's) or an IANA zone such as 'UTC' */
  timeZone: string;
  /** a relative preset id of time-range.ts, such as '1h' */
  defaultRange: string;
  /** rows per page of tables */
  pageSize: number;
}

/** The top-level key of the console's settings in the preferences blob. */
export const CONSOLE_KEY = 'console';

export const DEFAULT_PREFS: ConsolePrefs = { theme: 'system', timeZone: 'local', defaultRange: '1h', pageSize: 100 };

/** Keeps only well-formed values from a stored blob (written by any client, so untrusted). */
export function readPrefs(blob: unknown): ConsolePrefs {
  const c = blob && typeof blob === 'object' ? (blob as Record<string, unknown>)[CONSOLE_KEY] : undefined;
  const o = c && typeof c === 'object' ? (c as Record<string, unknown>) : {};
  const p = { ...DEFAULT_PREFS };
  if (o.theme === 'light' || o.theme === 'dark' || o.theme === 'system') p.theme = o.theme;
  if (typeof o.timeZone === 'string' && validZone(o.timeZone)) p.timeZone = o.timeZone;
  if (typeof o.defaultRange === 'string' && /^\d{1,3}[mhd]$/.test(o.defaultRange)) p.defaultRange = o.defaultRange;
  if (typeof o.pageSize === 'number' && Number.isInteger(o.pageSize) && o.pageSize >= 10 && o.pageSize <= 1000) p.pageSize = o.pageSize;
  return p;
}

/** The console's stored value with `patch` applied (for PrefsProvider's updateBlob). */
export const patchPrefs = (value: unknown, patch: Partial<ConsolePrefs>): ConsolePrefs => ({ ...readPrefs({ [CONSOLE_KEY]: value }), ...patch });

export function validZone(zone: string): boolean {
  if (zone === 'local') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
