import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api/client';
import { useAuth } from '../auth/AuthContext';
import { CONSOLE_KEY, ConsolePrefs, DEFAULT_PREFS, patchPrefs, readPrefs } from './prefs';
import { PrefsQueue, withKey } from './prefs-queue';
import { useCancellable } from '../ui/useCancellable';

export interface Prefs {
  prefs: ConsolePrefs;
  loaded: boolean;
  /** stores the new settings in the user's preferences blob (other clients' keys are kept) */
  save(patch: Partial<ConsolePrefs>): Promise<void>;
  /**
   * Replaces one top-level key of the preferences blob with `fn` of its stored value, in the same
   * single queue as save(): shown at once, undone if the service refuses; other keys are kept.
   */
  updateBlob(key: string, fn: (value: unknown) => unknown): Promise<void>;
}

export interface PrefsBlob {
  /** the whole preferences blob as shown (null until loaded or when it could not be read); written by any client, so untrusted */
  blob: unknown;
  loaded: boolean;
  updateBlob: Prefs['updateBlob'];
}

const PrefsContext = createContext<Prefs>({ prefs: DEFAULT_PREFS, loaded: false, save: async () => undefined, updateBlob: async () => undefined });
const PrefsBlobContext = createContext<PrefsBlob>({ blob: null, loaded: false, updateBlob: async () => undefined });

/** Loads the signed-in user's preferences blob (console settings and others) and applies the theme. Mounted under RequireAuth. */
export function PrefsProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const url = `/api/users/${user.UID}/preferences`;
  const [blob, setBlob] = useState<unknown>(null);
  const [loaded, setLoaded] = useState(false);

  // The same object while the settings are unchanged: a change of another key (a dismissal) does not re-render their readers.
  const prefsJson = JSON.stringify(readPrefs(blob));
  const prefs = useMemo(() => JSON.parse(prefsJson) as ConsolePrefs, [prefsJson]);

  useEffect(() => {
    const root = document.documentElement;
    if (prefs.theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = prefs.theme;
  }, [prefs.theme]);

  // Updates show at once (the theme changes as it is picked) and are undone if the service refuses.
  const shownBlob = useRef<unknown>(null);
  shownBlob.current = blob;
  // Every write of the blob (settings, notification dismissals) goes through this one queue: each
  // reads the blob the previous one wrote, so changes made together never overwrite each other.
  const queue = useMemo(() => new PrefsQueue({ load: () => api<unknown>(url), store: (next) => api(url, { method: 'PUT', json: next }).then(() => undefined) }), [url]);

  // Changes made so far: the first load's answer is shown only when none was made while it was on
  // its way (a theme picked while the page loads is not overwritten by the older blob it brings).
  const changes = useRef(0);
  useCancellable(
    () => {
      const before = changes.current;
      return api<unknown>(url).then((b) => ({ b, changed: changes.current !== before }));
    },
    {
      answer: ({ b, changed }) => {
        if (!changed) setBlob(b ?? null);
        setLoaded(true);
      },
      error: () => setLoaded(true),
    },
    [url],
  );

  const updateBlob = useCallback(
    (key: string, fn: (value: unknown) => unknown) => {
      changes.current++;
      const before = shownBlob.current;
      shownBlob.current = withKey(before, key, fn);
      setBlob(shownBlob.current);
      const run = queue.update(key, fn);
      return run.then(
        (next) => {
          // Only the last update in the queue sets what is shown (earlier answers are older).
          if (queue.isLast(run)) setBlob(next);
        },
        (err: unknown) => {
          if (queue.isLast(run)) setBlob(before);
          throw err;
        },
      );
    },
    [queue],
  );

  const save = useCallback((patch: Partial<ConsolePrefs>) => updateBlob(CONSOLE_KEY, (value) => patchPrefs(value, patch)), [updateBlob]);

  const value = useMemo(() => ({ prefs, loaded, save, updateBlob }), [prefs, loaded, save, updateBlob]);
  const blobValue = useMemo(() => ({ blob, loaded, updateBlob }), [blob, loaded, updateBlob]);
  return (
    <PrefsContext.Provider value={value}>
      <PrefsBlobContext.Provider value={blobValue}>{children}</PrefsBlobContext.Provider>
    </PrefsContext.Provider>
  );
}

export const usePrefs = (): Prefs => useContext(PrefsContext);

/** The whole preferences blob, for parts of the console that keep their own key in it (the notification bell's dismissals). */
export const usePrefsBlob = (): PrefsBlob => useContext(PrefsBlobContext);
