/** Notifications (product-notes §3.1) as the bell shows them: pure logic, no requests. */

export type Level = 'info' | 'warn' | 'error' | 'critical';
export const LEVELS: Level[] = ['info', 'warn', 'error', 'critical'];

export interface Notification {
  UID: number;
  GID: number;
  Sender: number;
  Type: number;
  Broadcast: boolean;
  Sent: string;
  Expires: string;
  IgnoreUntil: string;
  Msg: string;
  Origin: string;
  Level?: string;
  Link?: string;
}

/** GET /api/notifications: an object keyed by notification ID ({} when empty). */
export type NotificationSet = Record<string, Notification>;

export interface Shown extends Notification {
  ID: string;
}

/** IDs are decimal uint64 strings: compare by length, then digits. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The notifications to show, newest first, without the ones dismissed here. Tolerates any shape the service sends. */
export function unread(set: unknown, dismissed: ReadonlySet<string>): Shown[] {
  if (!set || typeof set !== 'object' || Array.isArray(set)) return [];
  const out: Shown[] = [];
  for (const [ID, n] of Object.entries(set as Record<string, unknown>)) {
    if (!/^\d{1,20}$/.test(ID) || dismissed.has(ID) || !n || typeof n !== 'object') continue;
    const msg = (n as { Msg?: unknown }).Msg;
    if (typeof msg !== 'string') continue;
    out.push({ ...(n as Notification), ID });
  }
  return out.sort((a, b) => compareIds(b.ID, a.ID));
}

/** Own notifications (addressed to this user) are deleted on dismissal; the others are only hidden for this user. */
export const isOwn = (n: Notification, uid: number): boolean => n.UID === uid && !n.Broadcast;

/** A known level, else 'info'. */
export const levelOf = (n: Notification): Level => (LEVELS.includes(n.Level as Level) ? (n.Level as Level) : 'info');

/** A link safe to follow: http(s) or a path of this console; anything else (javascript:, data:) is shown as text only. */
export function safeLink(link: string | undefined, origin: string): string | undefined {
  if (!link) return undefined;
  try {
    const u = new URL(link, origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.origin === origin ? `${u.pathname}${u.search}${u.hash}` : u.href;
  } catch {
    return undefined;
  }
}

/* Dismissals of notifications the user cannot delete (broadcasts, group ones): kept in the user's
   preferences blob under `consoleNotifications`, so they follow the person to other browsers. */

export const PREFS_KEY = 'consoleNotifications';

export function readDismissed(blob: unknown): Set<string> {
  const c = blob && typeof blob === 'object' ? (blob as Record<string, unknown>)[PREFS_KEY] : undefined;
  const list = c && typeof c === 'object' ? (c as { dismissed?: unknown }).dismissed : undefined;
  return new Set(Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string' && /^\d{1,20}$/.test(id)) : []);
}

/** At most this many dismissals are kept (the oldest go first); notifications expire anyway. */
export const MAX_DISMISSED = 500;

/** The blob with these dismissals (every other key kept); IDs no longer listed are dropped when `live` is given. */
export function writeDismissed(blob: unknown, dismissed: Iterable<string>, live?: ReadonlySet<string>): Record<string, unknown> {
  const base = blob && typeof blob === 'object' && !Array.isArray(blob) ? (blob as Record<string, unknown>) : {};
  const ids = [...new Set(dismissed)]
    .filter((id) => !live || live.has(id))
    .sort(compareIds)
    .slice(-MAX_DISMISSED);
  return { ...base, [PREFS_KEY]: { dismissed: ids } };
}

/** The stored `consoleNotifications` value with these dismissals added (for PrefsProvider's updateBlob of PREFS_KEY). */
export function addDismissed(value: unknown, add: Iterable<string>, live?: ReadonlySet<string>): unknown {
  const blob = { [PREFS_KEY]: value };
  return writeDismissed(blob, [...readDismissed(blob), ...add], live)[PREFS_KEY];
}

/** "3 min ago", "2 h ago", "yesterday"… for the list. */
export function ago(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86400);
  return d === 1 ? 'yesterday' : `${d} days ago`;
}
