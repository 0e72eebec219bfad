/**
 * One search as the console holds it (REST session API, product-notes §2.4): launch or attach,
 * poll its stats until it finishes, keep its session alive with pings, stop it, and detach when
 * the page leaves it (a search that is neither backgrounded nor saved is then removed).
 * React reads it through useSyncExternalStore (subscribe / getSnapshot).
 */
import { api, ApiError } from '../api/client';
import { LaunchResponse, OverviewStats, RendererPage, SearchInfo, StartSearchRequest } from '../api/types';

export type Phase = 'running' | 'finished' | 'stopped' | 'failed';

export interface SessionState {
  phase: Phase;
  info: SearchInfo;
  stats?: OverviewStats;
  error?: string;
  /** performance.now() at launch (for a search opened again: when it started) and when it ended */
  launchedAt: number;
  endedAt?: number;
  /** how long the search took by its own times (Started to Finished), once it has finished */
  took?: number;
}

/** Started to Finished of a finished search, in ms; undefined while it runs (Finished is year 0001). */
export function searchTook(info: SearchInfo): number | undefined {
  const started = Date.parse(info.Started);
  const finished = Date.parse(info.Finished);
  if (!Number.isFinite(started) || !Number.isFinite(finished) || /^0001-/.test(info.Finished)) return undefined;
  return Math.max(0, finished - started);
}

/** performance.now() of the moment the search started (by the service's clock), for one opened again. */
function startedAt(info: SearchInfo): number {
  const age = Date.now() - Date.parse(info.Started);
  return performance.now() - (Number.isFinite(age) ? Math.max(0, age) : 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SearchSession {
  /** the searches this page holds: leaveAll detaches them (signing out does, while it still can) */
  private static readonly live = new Set<SearchSession>();
  private state: SessionState;
  private readonly listeners = new Set<() => void>();
  private disposed = false;
  private stopRequested = false;
  private pinger?: ReturnType<typeof setInterval>;

  static async launch(req: StartSearchRequest, launchedAt = performance.now()): Promise<SearchSession> {
    const r = await api<LaunchResponse>('/api/searchctrl/launch', { method: 'POST', json: req });
    return new SearchSession(r, launchedAt);
  }

  /** Opens an existing search (running, backgrounded or saved) to read its results. */
  static async attach(id: string): Promise<SearchSession> {
    if (!/^\d{1,19}$/.test(id)) throw new ApiError(400, `"${id}" is not a search ID`);
    const r = await api<LaunchResponse>(`/api/searchctrl/${id}/attach`);
    return new SearchSession(r, startedAt(r.Info));
  }

  private constructor(
    readonly launchResponse: LaunchResponse,
    launchedAt: number,
  ) {
    this.state = { phase: 'running', info: launchResponse.Info, launchedAt };
    SearchSession.live.add(this);
    void this.poll();
  }

  get id(): string {
    return this.launchResponse.SearchID;
  }

  get sid(): string {
    return this.launchResponse.SearchSessionID;
  }

  get renderer(): string {
    return this.launchResponse.RenderModule;
  }

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly getSnapshot = (): SessionState => this.state;

  private set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of [...this.listeners]) fn();
  }

  private async poll(): Promise<void> {
    let delay = 50;
    while (!this.disposed) {
      try {
        const stats = await api<OverviewStats>(`/api/searchctrl/${this.id}/stats`, { query: { sid: this.sid } });
        if (this.disposed) return;
        if (stats.Error) {
          this.set({ stats, phase: 'failed', error: stats.Error, endedAt: performance.now() });
          break;
        }
        if (stats.Finished) {
          const info = await this.fetchInfo().catch(() => this.state.info);
          this.set({ stats, info, phase: this.stopRequested ? 'stopped' : 'finished', endedAt: performance.now(), took: searchTook(info) });
          break;
        }
        this.set({ stats });
      } catch (err) {
        if (this.disposed) return;
        if (err instanceof ApiError && [401, 403, 404].includes(err.status)) {
          const error = err.status === 404 ? 'The search no longer exists: it was deleted, or it was removed after everyone left it.' : err.message;
          this.set({ phase: 'failed', error, endedAt: performance.now() });
          return;
        }
        // A busy or restarting service: keep asking.
      }
      await sleep(delay);
      delay = Math.min(500, Math.round(delay * 1.5));
    }
    this.keepAlive();
  }

  private keepAlive(): void {
    if (this.disposed) return;
    const every = Math.max(1, this.launchResponse.RefreshInterval || 2) * 1000;
    this.pinger = setInterval(() => {
      api(`/api/searchctrl/${this.id}/ping`, { method: 'PUT', query: { sid: this.sid }, json: {} }).catch(() => undefined);
    }, every);
  }

  private async fetchInfo(): Promise<SearchInfo> {
    const [info] = await api<SearchInfo[]>(`/api/searchctrl/${this.id}`);
    return info;
  }

  /** Resolves once the search has finished, stopped or failed. */
  ended(): Promise<SessionState> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.state.phase !== 'running') {
          off();
          resolve(this.state);
        }
      };
      const off = this.subscribe(check);
      check();
    });
  }

  /** A page of entries [first, last) of an entry renderer, or the whole condensed result. */
  page<E>(first?: number, last?: number, signal?: AbortSignal): Promise<RendererPage<E>> {
    return api<RendererPage<E>>(`/api/searchctrl/${this.id}/renderer/${encodeURIComponent(this.renderer)}`, { query: { sid: this.sid, first, last }, signal });
  }

  async stop(): Promise<void> {
    if (this.state.phase !== 'running') return;
    this.stopRequested = true;
    await api(`/api/searchctrl/${this.id}/stop`, { method: 'PUT' });
  }

  background(): Promise<unknown> {
    return api(`/api/searchctrl/${this.id}/background`, { method: 'PATCH' });
  }

  save(metadata?: unknown): Promise<unknown> {
    return api(`/api/searchctrl/${this.id}/save`, { method: 'PATCH', json: metadata ?? {} });
  }

  downloadUrl(format: string): string {
    return `/api/searchctrl/${this.id}/download/${encodeURIComponent(format)}`;
  }

  /** Leaves every search this page holds; resolves when the service has answered each. */
  static async leaveAll(): Promise<void> {
    await Promise.all([...SearchSession.live].map((s) => s.dispose()));
  }

  /** Leaves the search (the service removes it unless it is backgrounded or saved); resolves once answered. */
  dispose(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.disposed = true;
    SearchSession.live.delete(this);
    if (this.pinger) clearInterval(this.pinger);
    this.listeners.clear();
    return api(`/api/searchctrl/${this.id}/detach`, { method: 'PUT', query: { sid: this.sid }, keepalive: true, expect401: true }).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Deletes the search and its results (the histogram's helper searches). */
  async remove(): Promise<void> {
    this.disposed = true;
    SearchSession.live.delete(this);
    if (this.pinger) clearInterval(this.pinger);
    this.listeners.clear();
    await api(`/api/searchctrl/${this.id}`, { method: 'DELETE', expect401: true }).catch(() => undefined);
  }
}
