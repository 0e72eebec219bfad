/**
 * Runs a dashboard's searches: each search some tile shows runs once, however many tiles show it,
 * over its range; a refresh (live update, a new range) launches them again and swaps each result
 * in once the new search has ended, so tiles never go blank while refreshing. Library references
 * (`reference.type: savedQuery`) are read from /api/library/{guid}; template references
 * (`reference.type: template`) are filled by /api/templates/{guid}/fill with the viewer's values;
 * a scheduled search (`reference.type: scheduledSearch`) shows its latest run's saved results
 * (attached, never run again by the viewer; a refresh looks for a newer run). React reads the slots
 * through useSyncExternalStore (subscribe / getSnapshot).
 *
 * At most one launch per search is under way: a new one (a new range, an edit, Refresh) cancels
 * the one it supersedes at once, and a live update is skipped while any launch is still running,
 * so slow searches never pile up on the service. The session a tile shows is left only when a
 * newer one takes its place (or the search is no longer wanted).
 *
 * Every launch says it is this dashboard's (`LaunchInfo` method "dashboard"): the service keeps
 * the search private to the viewer, and refuses a query with side effects (`table -save`...) that
 * someone else wrote. Such a search waits for the viewer (`consent`); once they agree (`confirm`)
 * it is launched with `ConfirmSideEffects`, and so is every later launch of that query while the
 * page is open (live updates included).
 */
import { api } from '../api/client';
import { LibraryEntry, ScheduledSearch, SideEffect } from '../api/types';
import { SearchSession, SessionState } from '../search/search-session';
import { isSideEffectRefusal, sideEffectsOf } from '../search/side-effects';
import { TimeRange } from '../search/time-range';
import { DashboardSearch, resolveDashboardRange } from './dashboard-data';

export interface SearchSlot {
  /** the search whose results tiles show (the previous one while a refresh runs) */
  session?: SearchSession;
  /** a refresh under way */
  refreshing: boolean;
  error?: string;
  /** the query as run (a library entry's, for references) */
  query?: string;
  /** someone else wrote this query and it has side effects: it runs once the viewer agrees */
  consent?: Consent;
  /** why it has not started: it runs a template whose variables the viewer has not given yet */
  waiting?: string;
}

export interface Consent {
  query: string;
  /** what it would change (from /api/parse); empty when that could not be read */
  effects: SideEffect[];
  /** the service's refusal, in its words */
  refusal: string;
}

type Started = { session: SearchSession; consent?: undefined } | { session?: undefined; consent: Consent };

/** A query of a search agreed to, while the page is open. */
const agreed = (index: number, query: string) => `${index}\u0000${query}`;

export interface RunRequest {
  index: number;
  search: DashboardSearch;
  range: TimeRange;
  /** a search that runs a template: the values of its variables, as the viewer gave them */
  values?: Record<string, string>;
}

/**
 * The query of a dashboard search: its own, its library entry's, or its template's with the
 * variables filled in (by the service, the one place that fills them: POST /api/templates/{id}/fill).
 */
export async function queryOf(s: DashboardSearch, library: Map<string, Promise<LibraryEntry>>, values: Record<string, string> = {}): Promise<string> {
  const ref = s.reference;
  if (ref && ref.type === 'template' && ref.id) {
    try {
      const filled = await api<{ Query: string }>(`/api/templates/${encodeURIComponent(ref.id)}/fill`, { method: 'POST', json: { Values: values } });
      return filled.Query;
    } catch (err) {
      throw new Error(`The template this search runs (${ref.id}) cannot be run: ${(err as Error).message}`, { cause: err });
    }
  }
  if (ref && ref.type === 'savedQuery' && ref.id) {
    let entry = library.get(ref.id);
    if (!entry) {
      entry = api<LibraryEntry>(`/api/library/${encodeURIComponent(ref.id)}`);
      library.set(ref.id, entry);
    }
    try {
      const e = await entry;
      if (!e.Query?.trim()) throw new Error(`The library entry “${e.Name}” has no query.`);
      return e.Query;
    } catch (err) {
      library.delete(ref.id);
      throw new Error(`The library entry this search refers to (${ref.id}) cannot be read: ${(err as Error).message}`, { cause: err });
    }
  }
  if (typeof s.query === 'string' && s.query.trim()) return s.query;
  throw new Error('This search has no query.');
}

/** The saved search of a scheduled search's latest run (`reference.id`: its GUID), or why there is none. */
export async function latestRunOf(guid: string): Promise<{ searchId: string; name: string }> {
  let s: ScheduledSearch;
  try {
    s = await api<ScheduledSearch>(`/api/scheduledsearches/${encodeURIComponent(guid)}`);
  } catch (err) {
    throw new Error(`The scheduled search this search refers to (${guid}) cannot be read: ${(err as Error).message}`, { cause: err });
  }
  const searchId = s.LastSearchIDs[0];
  if (!searchId) throw new Error(`The scheduled search “${s.Name}” has no results yet${s.LastError ? ` (last error: ${s.LastError})` : ''}.`);
  return { searchId, name: s.Name };
}

/** One launch of one search, until it has ended and been swapped in, or was cancelled. */
class Launch {
  cancelled = false;
  session?: SearchSession;
  private resolveCancel!: () => void;
  /** resolves when the launch is cancelled (a disposed session never ends) */
  readonly onCancel = new Promise<void>((resolve) => (this.resolveCancel = resolve));

  cancel(): void {
    this.cancelled = true;
    this.resolveCancel();
  }
}

export class DashboardRunner {
  private slots = new Map<number, SearchSlot>();
  private readonly requests = new Map<number, RunRequest>();
  private readonly confirmed = new Set<string>();
  private readonly launches = new Map<number, Launch>();
  private snapshot: ReadonlyMap<number, SearchSlot> = new Map();
  private readonly listeners = new Set<() => void>();
  private readonly library = new Map<string, Promise<LibraryEntry>>();
  private disposed = false;

  /** `dashboard`: the ID (or GUID) of the dashboard whose searches these are, sent with every launch. */
  constructor(private readonly dashboard: string) {}

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly getSnapshot = (): ReadonlyMap<number, SearchSlot> => this.snapshot;

  /** Some launch has not ended yet. */
  get busy(): boolean {
    return this.launches.size > 0;
  }

  private publish(): void {
    this.snapshot = new Map(this.slots);
    for (const fn of [...this.listeners]) fn();
  }

  private set(index: number, patch: Partial<SearchSlot>): void {
    if (this.disposed) return;
    this.slots.set(index, { refreshing: false, ...this.slots.get(index), ...patch });
    this.publish();
  }

  /** Cancels the launch under way for a search, leaving its session unless a tile shows it. */
  private cancel(index: number): void {
    const l = this.launches.get(index);
    if (!l) return;
    this.launches.delete(index);
    l.cancel();
    if (l.session && l.session !== this.slots.get(index)?.session) void l.session.dispose();
  }

  /**
   * Launches every search asked for, cancelling launches they supersede; a search no longer
   * asked for is left. A live update (`live`) leaves searches waiting for the viewer's consent.
   */
  run(requests: RunRequest[], live = false): void {
    if (this.disposed) return;
    const wanted = new Set(requests.map((r) => r.index));
    this.requests.clear();
    for (const r of requests) this.requests.set(r.index, r);
    for (const i of [...this.launches.keys()]) if (!wanted.has(i)) this.cancel(i);
    for (const [i, slot] of [...this.slots]) {
      if (wanted.has(i)) continue;
      void slot.session?.dispose();
      this.slots.delete(i);
    }
    this.publish();
    for (const r of requests) if (!(live && this.slots.get(r.index)?.consent)) this.launch(r);
  }

  /** A live update: runs the searches again unless a launch is still running; false when skipped. */
  refresh(requests: RunRequest[]): boolean {
    if (this.disposed || this.busy) return false;
    this.run(requests, true);
    return true;
  }

  /** The viewer agreed to the side effects of a search's query: it runs now, and from now on without asking. */
  confirm(index: number): void {
    const consent = this.slots.get(index)?.consent;
    const r = this.requests.get(index);
    if (this.disposed || !consent || !r) return;
    this.confirmed.add(agreed(index, consent.query));
    this.set(index, { consent: undefined });
    this.launch(r);
  }

  private launch(r: RunRequest): void {
    this.cancel(r.index);
    const l = new Launch();
    this.launches.set(r.index, l);
    this.set(r.index, { refreshing: !!this.slots.get(r.index)?.session, error: undefined });
    void this.follow(r, l);
  }

  private async follow(r: RunRequest, l: Launch): Promise<void> {
    const current = () => !l.cancelled && !this.disposed;
    try {
      const ref = r.search.reference;
      const scheduled = ref?.type === 'scheduledSearch' && ref.id ? await latestRunOf(ref.id) : undefined;
      const query = scheduled ? `Results of the scheduled search “${scheduled.name}”` : await queryOf(r.search, this.library, r.values);
      if (!current()) return;
      const started: Started = scheduled ? { session: await SearchSession.attach(scheduled.searchId) } : await this.start(r, query);
      if (!current()) return void started.session?.dispose();
      if (started.consent) {
        this.launches.delete(r.index);
        return this.set(r.index, { refreshing: false, consent: started.consent });
      }
      const next = started.session;
      l.session = next;
      // Nothing shown yet: show this one while it runs.
      if (!this.slots.get(r.index)?.session) this.set(r.index, { session: next, query, consent: undefined });
      const done = await Promise.race<SessionState | undefined>([next.ended(), l.onCancel.then(() => undefined)]);
      if (!done || !current()) return; // cancel() has left it, unless a tile shows it
      this.launches.delete(r.index);
      const before = this.slots.get(r.index)?.session;
      if (before && before !== next) void before.dispose();
      this.set(r.index, { session: next, query, refreshing: false, error: undefined, consent: undefined });
    } catch (err) {
      if (!current()) return;
      this.launches.delete(r.index);
      this.set(r.index, { refreshing: false, error: (err as Error).message || 'The search could not start.' });
    }
  }

  /**
   * Launches the search as this dashboard's; or, when the service refused it for side effects the
   * viewer has not agreed to, what it would change (the slot then waits for their consent).
   */
  private async start(r: RunRequest, query: string): Promise<Started> {
    const { start, end } = resolveDashboardRange(r.range);
    const confirmed = this.confirmed.has(agreed(r.index, query));
    try {
      const session = await SearchSession.launch({
        SearchString: query,
        SearchStart: start.toISOString(),
        SearchEnd: end.toISOString(),
        NoHistory: true,
        LaunchInfo: { method: 'dashboard', reference: this.dashboard },
        ...(confirmed ? { ConfirmSideEffects: true } : {}),
      });
      return { session };
    } catch (err) {
      if (confirmed || !isSideEffectRefusal(err)) throw err;
      return { consent: { query, effects: await sideEffectsOf(query).catch(() => []), refusal: err.message } };
    }
  }

  /** Leaves every search (the service removes them). */
  dispose(): void {
    if (this.disposed) return;
    for (const i of [...this.launches.keys()]) this.cancel(i);
    this.disposed = true;
    for (const slot of this.slots.values()) void slot.session?.dispose();
    this.slots.clear();
    this.listeners.clear();
  }
}
