/**
 * Runs a dashboard's searches: each search some tile shows runs once, however many tiles show it,
 * over its range; a refresh (live update, a new range) launches them again and swaps each result
 * in once the new search has ended, so tiles never go blank while refreshing. Library references
 * (`reference.type: savedQuery`) are read from /api/library/{guid}. React reads the slots
 * through useSyncExternalStore (subscribe / getSnapshot).
 */
import { api } from '../api/client';
import { LibraryEntry } from '../api/types';
import { SearchSession } from '../search/search-session';
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

export class DashboardRunner {
  private slots = new Map<number, SearchSlot>();
  private snapshot: ReadonlyMap<number, SearchSlot> = new Map();
  private readonly listeners = new Set<() => void>();
  private readonly library = new Map<string, Promise<LibraryEntry>>();
  private generation = 0;
  private disposed = false;

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly getSnapshot = (): ReadonlyMap<number, SearchSlot> => this.snapshot;

  private set(index: number, patch: Partial<SearchSlot>): void {
    if (this.disposed) return;
    this.slots.set(index, { refreshing: false, ...this.slots.get(index), ...patch });
    this.snapshot = new Map(this.slots);
    for (const fn of [...this.listeners]) fn();
  }

  /** Launches every search asked for; a search no longer asked for is left. */
  run(requests: RunRequest[]): void {
    const gen = ++this.generation;
    const wanted = new Set(requests.map((r) => r.index));
    for (const [i, slot] of this.slots) {
      if (wanted.has(i)) continue;
      void slot.session?.dispose();
      this.slots.delete(i);
    }
    this.snapshot = new Map(this.slots);
    for (const r of requests) void this.launch(gen, r);
  }

  private async launch(gen: number, r: RunRequest): Promise<void> {
    const before = this.slots.get(r.index)?.session;
    this.set(r.index, { refreshing: !!before, error: undefined });
    let next: SearchSession | undefined;
    try {
      const query = await queryOf(r.search, this.library);
      const { start, end } = resolveDashboardRange(r.range);
      next = await SearchSession.launch({ SearchString: query, SearchStart: start.toISOString(), SearchEnd: end.toISOString(), NoHistory: true });
      if (gen !== this.generation || this.disposed) return void next.dispose();
      if (!before) this.set(r.index, { session: next, query });
      const done = await next.ended();
      if (gen !== this.generation || this.disposed) return void next.dispose();
      if (before) {
        void before.dispose();
        this.set(r.index, { session: next, query, refreshing: false, error: done.phase === 'failed' ? done.error : undefined });
      } else this.set(r.index, { refreshing: false });
    } catch (err) {
      if (gen !== this.generation || this.disposed) return;
      this.set(r.index, { refreshing: false, error: (err as Error).message || 'The search could not start.' });
    }
  }

  /** Leaves every search (the service removes them). */
  dispose(): void {
    this.disposed = true;
    this.generation++;
    for (const slot of this.slots.values()) void slot.session?.dispose();
    this.slots.clear();
    this.listeners.clear();
  }
}
