import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { usePrefs } from '../prefs/PrefsContext';
import { formatTime } from '../ui/time-format';
import { ConflictError, Dashboard, getDashboard, saveDashboard, Versioned } from './dashboards-api';

/** What the page does as the draft's life goes on; the latest given is called. */
export interface DraftEvents {
  /** A version came from the service (the first load or a reload): the page starts over from it. */
  onLoaded(dashboard: Dashboard): void;
  /** The save worked. */
  onSaved(): void;
  /** The service answered 412: someone saved the dashboard after this version was read. */
  onConflict(): void;
  /** The save failed for another reason; `problem` says why. */
  onSaveFailed(): void;
}

/** Makes every answer still on its way (a load, a save) stale. */
const drop = (loads: { latest: number }) => void loads.latest++;

/**
 * One dashboard as read from the service and the changes made to it here (the draft), saved back
 * whole with the version it was read at (If-Match), so a save over someone else's newer one is
 * refused (`onConflict`) unless it overwrites. `loadError` is a first load that failed (the page
 * shows it instead of the dashboard); `problem` is a failed save or reload, in words, shown whatever
 * else the status line (`note`) says.
 */
export function useDashboardDraft(ref: string, events: DraftEvents) {
  const { prefs } = usePrefs();
  const [loaded, setLoaded] = useState<Versioned>();
  const [loadError, setLoadError] = useState<string>();
  const [draft, setDraft] = useState<Dashboard>();
  const [dirty, setDirty] = useState(false);
  const [note, setNote] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const on = useRef(events);
  on.current = events;

  // Each load (and save) answers only if nothing newer started since: a late answer for the
  // previous dashboard (the route's ref changed) or an earlier reload is dropped.
  const loads = useRef({ latest: 0 }).current;
  /**
   * Reads the dashboard. The first load of a ref shows a failure instead of the page; a reload
   * (Discard, Reload after a conflict) keeps the page and the changes, and says why in the alert
   * line. Resolves whether it worked.
   */
  const load = useCallback(
    async (first = false): Promise<boolean> => {
      const mine = ++loads.latest;
      try {
        const v = await getDashboard(ref);
        if (mine !== loads.latest) return false;
        setLoaded(v);
        setDraft(v.dashboard);
        setDirty(false);
        setLoadError(undefined);
        setProblem(undefined);
        setNote(undefined);
        on.current.onLoaded(v.dashboard);
        return true;
      } catch (err) {
        if (mine !== loads.latest) return false;
        const text = loadProblem(err as ApiError, ref);
        if (first) setLoadError(text);
        else setProblem(`Not reloaded: ${text}`);
        return false;
      }
    },
    [ref, loads],
  );
  useEffect(() => {
    // Another dashboard: nothing of the previous one stays.
    setLoaded(undefined);
    setDraft(undefined);
    setLoadError(undefined);
    setDirty(false);
    setNote(undefined);
    setProblem(undefined);
    void load(true);
    return () => drop(loads);
  }, [load, loads]);

  /** A change to the draft: its new Data, and any other fields changed with it. */
  const change = (data: unknown, patch: Partial<Dashboard> = {}) => {
    setDraft((d) => (d ? { ...d, ...patch, Data: data } : d));
    setDirty(true);
    setNote(undefined);
  };

  /** Saves the draft; `overwrite` drops If-Match, so it replaces whatever was saved since. */
  async function save(overwrite = false) {
    if (!draft) return;
    const mine = loads.latest;
    setSaving(true);
    try {
      const v = await saveDashboard(draft, overwrite ? undefined : loaded?.etag);
      if (mine !== loads.latest) return;
      setLoaded(v);
      setDraft(v.dashboard);
      setDirty(false);
      on.current.onSaved();
      setProblem(undefined);
      setNote(`Saved at ${formatTime(new Date(), prefs.timeZone).slice(11, 19)}.`);
    } catch (err) {
      if (mine !== loads.latest) return;
      if (err instanceof ConflictError) on.current.onConflict();
      else {
        on.current.onSaveFailed();
        setProblem(`Not saved: ${(err as Error).message}`);
      }
    } finally {
      setSaving(false);
    }
  }

  return {
    draft,
    dirty,
    loadError,
    note,
    problem,
    saving,
    change,
    save,
    /** Drops the changes: the version saved last, read again. */
    discard: () => void load(),
    /** After a conflict: the version saved last (someone else's), and the status line says so. */
    reloadSaved: () => void load().then((ok) => ok && setNote('Reloaded: this is the version saved last.')),
  };
}

/** The words for a dashboard that could not be read. */
function loadProblem(e: ApiError, ref: string): string {
  if (e.status === 404) return 'This dashboard does not exist, or it is not shared with you. Ask its owner to share it with one of your groups.';
  if (e.status === 400) return `“${ref}” is not a dashboard ID or GUID.`;
  return `The dashboard could not be read: ${e.message}`;
}
