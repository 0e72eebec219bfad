import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client';
import { useAuth } from '../auth/AuthContext';
import { ConsolePrefs, DEFAULT_PREFS, readPrefs, writePrefs } from './prefs';

export interface Prefs {
  prefs: ConsolePrefs;
  loaded: boolean;
  /** stores the new settings in the user's preferences blob (other clients' keys are kept) */
  save(patch: Partial<ConsolePrefs>): Promise<void>;
}

const PrefsContext = createContext<Prefs>({ prefs: DEFAULT_PREFS, loaded: false, save: async () => undefined });

/** Loads the signed-in user's console settings and applies the theme. Mounted under RequireAuth. */
export function PrefsProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const url = `/api/users/${user.UID}/preferences`;
  const [blob, setBlob] = useState<unknown>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let live = true;
    api<unknown>(url).then(
      (b) => live && (setBlob(b ?? null), setLoaded(true)),
      () => live && setLoaded(true),
    );
    return () => {
      live = false;
    };
  }, [url]);

  const prefs = useMemo(() => readPrefs(blob), [blob]);

  useEffect(() => {
    const root = document.documentElement;
    if (prefs.theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = prefs.theme;
  }, [prefs.theme]);

  // Saving shows the new settings at once (the theme changes as it is picked) and undoes them if the service refuses.
  const shownBlob = useRef<unknown>(null);
  shownBlob.current = blob;
  // Saves run one after another: each reads the blob the previous one wrote, so quick changes of
  // several settings never overwrite each other (a read-modify-write each).
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const save = useCallback(
    (patch: Partial<ConsolePrefs>) => {
      const before = shownBlob.current;
      shownBlob.current = writePrefs(before, { ...readPrefs(before), ...patch });
      setBlob(shownBlob.current);
      const run = queue.current
        .catch(() => undefined)
        .then(async () => {
          const current = await api<unknown>(url);
          const next = writePrefs(current, { ...readPrefs(current), ...patch });
          await api(url, { method: 'PUT', json: next });
          return next;
        });
      queue.current = run;
      return run.then(
        (next) => {
          // Only the last save in the queue sets what is shown (earlier answers are older).
          if (queue.current === run) setBlob(next);
        },
        (err: unknown) => {
          if (queue.current === run) setBlob(before);
          throw err;
        },
      );
    },
    [url],
  );

  const value = useMemo(() => ({ prefs, loaded, save }), [prefs, loaded, save]);
  return <PrefsContext.Provider value={value}>{children}</PrefsContext.Provider>;
}

export const usePrefs = (): Prefs => useContext(PrefsContext);
