import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, onSessionEnded } from '../api/client';
import { useAuth } from '../auth/AuthContext';
import { usePrefsBlob } from '../prefs/PrefsContext';
import { deleteNotification, listNotifications } from './notifications-api';
import { addDismissed, isOwn, NotificationSet, PREFS_KEY, readDismissed, Shown, unread } from './notifications';

/** How often the bell asks for new notifications (also whenever the window regains focus). */
export const POLL_MS = 60_000;

/**
 * The signed-in user's notifications, polled gently: every minute while the page is visible and
 * on focus; never after signing out (or once the session has ended). Dismissing deletes one's own
 * notifications and hides the others (broadcasts, group ones) for this user only, in the
 * preferences blob (`consoleNotifications.dismissed`), written through PrefsProvider's one queue.
 */
export function useNotifications() {
  const { user, onSignOut } = useAuth();
  const { blob, loaded, updateBlob } = usePrefsBlob();
  const [set, setSet] = useState<NotificationSet>();
  // Hidden here at once (own ones being deleted, others until the preferences have them).
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
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

  // Until the preferences are read nothing is counted: a dismissed notification never flashes back.
  const list = useMemo<Shown[] | undefined>(() => (set && loaded ? unread(set, new Set([...readDismissed(blob), ...hidden])) : undefined), [set, loaded, blob, hidden]);

  // The IDs the service lists now: dismissals of notifications gone from it are dropped when saving.
  const liveIds = useRef<Set<string>>(new Set());
  liveIds.current = new Set(Object.keys(set ?? {}));

  const dismiss = useCallback(
    async (items: Shown[]) => {
      if (!items.length) return;
      const ids = items.map((n) => n.ID);
      // Off the list at once; back on it if the service refuses.
      setHidden((d) => new Set([...d, ...ids]));
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
        // A read-modify-write of our key, in the same queue as the settings' saves.
        await updateBlob(PREFS_KEY, (value) => addDismissed(value, hide, live));
      } catch (err) {
        setHidden((d) => new Set([...d].filter((id) => !ids.includes(id))));
        setError(`The notification could not be dismissed: ${(err as Error).message}`);
      }
    },
    [user.UID, updateBlob],
  );

  return { list, error, refresh, dismiss };
}
