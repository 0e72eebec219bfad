import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, onSessionEnded } from '../api/client';
import { useAuth } from '../auth/AuthContext';
import { deleteNotification, listNotifications, loadDismissed, saveDismissed } from './notifications-api';
import { isOwn, NotificationSet, Shown, unread } from './notifications';

/** How often the bell asks for new notifications (also whenever the window regains focus). */
export const POLL_MS = 60_000;

/**
 * The signed-in user's notifications, polled gently: every minute while the page is visible and
 * on focus; never after signing out (or once the session has ended). Dismissing deletes one's own
 * notifications and hides the others (broadcasts, group ones) for this user only.
 */
export function useNotifications() {
  const { user, onSignOut } = useAuth();
  const [set, setSet] = useState<NotificationSet>();
  const [dismissed, setDismissed] = useState<Set<string>>();
  const [error, setError] = useState<string>();
  const stopped = useRef(false);
  const inFlight = useRef(false);

  const refresh = useCallback(async () => {
    if (stopped.current || inFlight.current) return;
    inFlight.current = true;
    try {
      const s = await listNotifications();
      if (!stopped.current) {
        setSet(s);
        setError(undefined);
      }
    } catch (err) {
      if (!stopped.current) setError(`Notifications could not be read: ${(err as Error).message}`);
    } finally {
      inFlight.current = false;
    }
  }, []);

  useEffect(() => {
    stopped.current = false;
    loadDismissed(user.UID).then(setDismissed, () => setDismissed(new Set()));
    void refresh();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void refresh();
    }, POLL_MS);
    const onFocus = () => void refresh();
    const onVisible = () => document.visibilityState === 'visible' && void refresh();
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    const stop = () => {
      stopped.current = true;
      clearInterval(timer);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    };
    const offSignOut = onSignOut(stop);
    const offEnded = onSessionEnded(stop);
    return () => {
      stop();
      offSignOut();
      offEnded();
    };
  }, [user.UID, onSignOut, refresh]);

  // Until the dismissals are known nothing is counted: a dismissed notification never flashes back.
  const list = useMemo<Shown[] | undefined>(() => (set && dismissed ? unread(set, dismissed) : undefined), [set, dismissed]);

  // The IDs the service lists now: dismissals of notifications gone from it are dropped when saving.
  const liveIds = useRef<Set<string>>(new Set());
  liveIds.current = new Set(Object.keys(set ?? {}));
  // Saves of the dismissals run one after another (each a read-modify-write of the preferences).
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const dismiss = useCallback(
    async (items: Shown[]) => {
      if (!items.length) return;
      const ids = items.map((n) => n.ID);
      // Off the list at once; back on it if the service refuses.
      setDismissed((d) => new Set([...(d ?? []), ...ids]));
      setError(undefined);
      try {
        const own = items.filter((n) => isOwn(n, user.UID));
        const notDeleted: string[] = [];
        await Promise.all(
          own.map((n) =>
            deleteNotification(n.ID).catch((err: unknown) => {
              // Already gone (expired) is dismissed; refused: hide it instead.
              if ((err as ApiError).status !== 404) notDeleted.push(n.ID);
            }),
          ),
        );
        const hide = [...items.filter((n) => !isOwn(n, user.UID)).map((n) => n.ID), ...notDeleted];
        if (!hide.length) return;
        const live = new Set([...liveIds.current, ...hide]);
        const run = queue.current.catch(() => undefined).then(() => saveDismissed(user.UID, hide, live));
        queue.current = run;
        await run;
      } catch (err) {
        setDismissed((d) => new Set([...(d ?? [])].filter((id) => !ids.includes(id))));
        setError(`The notification could not be dismissed: ${(err as Error).message}`);
      }
    },
    [user.UID],
  );

  return { list, error, refresh, dismiss };
}
