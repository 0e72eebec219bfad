/** Requests of the notification bell: list, delete, the dismissals in the preferences blob, and the admins' send. */
import { api } from '../api/client';
import { GroupDetails, UserDetails } from '../api/types';
import { Level, NotificationSet, readDismissed, writeDismissed } from './notifications';

export const listNotifications = (): Promise<NotificationSet> => api<NotificationSet | null>('/api/notifications').then((s) => s ?? {});

export const deleteNotification = (id: string): Promise<unknown> => api(`/api/notifications/${id}`, { method: 'DELETE' });

const prefsUrl = (uid: number) => `/api/users/${uid}/preferences`;

export const loadDismissed = (uid: number): Promise<Set<string>> => api<unknown>(prefsUrl(uid)).then(readDismissed);

/** Adds dismissals to the preferences blob (read, change, write: other clients' keys are kept). */
export async function saveDismissed(uid: number, add: string[], live: ReadonlySet<string>): Promise<Set<string>> {
  const blob = await api<unknown>(prefsUrl(uid));
  const next = writeDismissed(blob, [...readDismissed(blob), ...add], new Set([...live, ...add]));
  await api(prefsUrl(uid), { method: 'PUT', json: next });
  return readDismissed(next);
}

export type Target = { kind: 'everyone' } | { kind: 'user'; uid: number } | { kind: 'group'; gid: number };

export interface Outgoing {
  Msg: string;
  Level: Level;
  /** ISO time */
  Expires: string;
  Link?: string;
}

/** Administrators: to everyone (broadcast), or to one user or one group (targeted). Resolves with the new ID. */
export function sendNotification(target: Target, n: Outgoing): Promise<number> {
  if (target.kind === 'everyone') return api<number>('/api/notifications/broadcast', { method: 'POST', json: n });
  const to = target.kind === 'user' ? { UID: target.uid } : { GID: target.gid };
  return api<number>('/api/notifications/targeted', { method: 'POST', json: { ...n, ...to } });
}

export const listUsers = (): Promise<UserDetails[]> => api<UserDetails[] | null>('/api/users').then((l) => [...(l ?? [])].sort((a, b) => a.User.localeCompare(b.User)));
export const listGroups = (): Promise<GroupDetails[]> => api<GroupDetails[] | null>('/api/groups').then((l) => [...(l ?? [])].sort((a, b) => a.Name.localeCompare(b.Name)));
