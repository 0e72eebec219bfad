/**
 * Runs a dashboard's searches: each search some tile shows runs once, however many tiles show it,
 * over its range; a refresh (live update, a new range) launches them again and swaps each result
 * in once the new search has ended, so tiles never go blank while refreshing. Library references
 * (`reference.type: savedQuery`) are read from /api/library/{guid}. React reads the slots
 * through useSyncExternalStore (subscribe / getSnapshot).
 *
 * At most one launch per search is under way: a new one (a new range, an edit, Refresh) cancels
 * the one it supersedes at once, and a live update is skipped while any launch is still running,
 * so slow searches never pile up on the service. The session a tile shows is left only when a
 * newer one takes its place (or the search is no longer wanted).
 */
import { api } from '../api/client';
import { LibraryEntry } from '../api/types';
import { SearchSession, SessionState } from '../search/search-session';
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
}

export interface RunRequest {
  index: number;
  search: DashboardSearch;
  range: TimeRange;
}

/** The query of a dashboard search: its own, or its library entry's. */
export async function queryOf(s: DashboardSearch, library: Map<string, Promise<LibraryEntry>>): Promise<string> {
  const ref = s.reference;
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
  private readonly launches = new Map<number, Launch>();
  private snapshot: ReadonlyMap<number, SearchSlot> = new Map();
  private readonly listeners = new Set<() => void>();
  private readonly library = new Map<string, Promise<LibraryEntry>>();
  private disposed = false;

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
   * asked for is left.
   */
  run(requests: RunRequest[]): void {
    if (this.disposed) return;
    const wanted = new Set(requests.map((r) => r.index));
    for (const i of [...this.launches.keys()]) if (!wanted.has(i)) this.cancel(i);
    for (const [i, slot] of [...this.slots]) {
      if (wanted.has(i)) continue;
      void slot.session?.dispose();
      this.slots.delete(i);
    }
    this.publish();
    for (const r of requests) this.launch(r);
  }

  /** A live update: runs the searches again unless a launch is still running; false when skipped. */
  refresh(requests: RunRequest[]): boolean {
    if (this.disposed || this.busy) return false;
    this.run(requests);
    return true;
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
      const query = await queryOf(r.search, this.library);
      if (!current()) return;
      const { start, end } = resolveDashboardRange(r.range);
      const next = await SearchSession.launch({ SearchString: query, SearchStart: start.toISOString(), SearchEnd: end.toISOString(), NoHistory: true });
      if (!current()) return void next.dispose();
      l.session = next;
      // Nothing shown yet: show this one while it runs.
      if (!this.slots.get(r.index)?.session) this.set(r.index, { session: next, query });
      const done = await Promise.race<SessionState | undefined>([next.ended(), l.onCancel.then(() => undefined)]);
      if (!done || !current()) return; // cancel() has left it, unless a tile shows it
      this.launches.delete(r.index);
      const before = this.slots.get(r.index)?.session;
      if (before && before !== next) void before.dispose();
      this.set(r.index, { session: next, query, refreshing: false, error: undefined });
    } catch (err) {
      if (!current()) return;
      this.launches.delete(r.index);
      this.set(r.index, { refreshing: false, error: (err as Error).message || 'The search could not start.' });
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
