/**
 * Requests of the notification bell: list, delete, and the admins' send. The dismissals live in the
 * preferences blob and are written through PrefsProvider's updateBlob (useNotifications.ts).
 */
import { api } from '../api/client';
import { Level, NotificationSet } from './notifications';

export const listNotifications = (): Promise<NotificationSet> => api<NotificationSet | null>('/api/notifications').then((s) => s ?? {});

export const deleteNotification = (id: string): Promise<unknown> => api(`/api/notifications/${id}`, { method: 'DELETE' });

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
