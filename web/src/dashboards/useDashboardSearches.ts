import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { TimeRange } from '../search/time-range';
import { DashboardSearch, DashboardView, searchesToRun, searchRange, templateRef } from './dashboard-data';
import { DashboardRunner, RunRequest, SearchSlot } from './dashboard-runner';

const NO_SLOTS: ReadonlyMap<number, SearchSlot> = new Map();
const noSubscribe = () => () => undefined;
const noSlots = () => NO_SLOTS;

/** The time the searches run over (see useDashboardTime). */
interface SearchTime {
  range: TimeRange;
  chosen: boolean;
  zoomed: ReadonlyMap<number, TimeRange>;
}

/**
 * The dashboard's searches: one runner per page, launched again when what they run changes or on
 * `refresh`, and every `live` seconds while the range moves with time and updates are not paused.
 * `slots` holds each search's state by search index; `ranAt` is the last launch. `dashboard` (its
 * ID) goes with every launch, so the service knows whose queries these are; `confirm(index)` runs
 * a search waiting for the viewer's consent to its side effects.
 */
export function useDashboardSearches(
  dashboard: number | undefined,
  view: DashboardView | undefined,
  { range, chosen, zoomed }: SearchTime,
  paused: boolean,
  /** the variables of a search that runs a template; undefined: not given yet (it waits) */
  valuesOf: (search: DashboardSearch) => Record<string, string> | undefined = () => ({}),
) {
  const [refreshes, setRefreshes] = useState(0);
  const [ranAt, setRanAt] = useState<Date>();

  // Made in an effect (not a memo), so a remount in development gets a live one.
  const [runner, setRunner] = useState<DashboardRunner>();
  // One per dashboard: what the viewer agreed to is forgotten with the page (or another dashboard).
  useEffect(() => {
    if (dashboard === undefined) return;
    const r = new DashboardRunner(String(dashboard));
    setRunner(r);
    const leave = () => r.dispose();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      r.dispose();
      setRunner(undefined);
    };
  }, [dashboard]);
  const slots = useSyncExternalStore(runner?.subscribe ?? noSubscribe, runner?.getSnapshot ?? noSlots);
  const requests = useMemo<RunRequest[]>(() => {
    if (!view) return [];
    return searchesToRun(view).flatMap((index) => {
      const search = view.searches[index]!;
      const values = templateRef(search) ? valuesOf(search) : undefined;
      if (templateRef(search) && !values) return [];
      return [{ index, search, range: zoomed.get(index) ?? searchRange(search, range, chosen), ...(values && { values }) }];
    });
  }, [view, range, chosen, zoomed, valuesOf]);
  const runKey = JSON.stringify(requests.map((r) => [r.index, r.search, r.range, r.values]));
  const requestsRef = useRef(requests);
  requestsRef.current = requests;
  // What runs changed, or Refresh: launch again now (the runner cancels what this supersedes).
  useEffect(() => {
    if (!runner) return;
    runner.run(requests);
    setRanAt(new Date());
  }, [runner, runKey, refreshes]); // eslint-disable-line react-hooks/exhaustive-deps -- runKey stands for requests

  // Live updates, for ranges that move with time; a tick while a search still runs is skipped.
  const live = view?.liveUpdateSeconds;
  const moving = range.kind === 'relative' || !chosen;
  useEffect(() => {
    if (!live || paused || !moving || !runner) return;
    const t = setInterval(() => {
      if (runner.refresh(requestsRef.current)) setRanAt(new Date());
    }, live * 1000);
    return () => clearInterval(t);
  }, [live, paused, moving, runner]);

  const confirm = useCallback((index: number) => runner?.confirm(index), [runner]);
  return { slots, ranAt, live, moving, refresh: () => setRefreshes((n) => n + 1), confirm };
}
