/**
 * The status page's figures, live over the stats websocket (/api/ws/stats: `{"Subs": [...]}`,
 * ACK, then `{type, data}` frames every 2 s). The socket authenticates with the console's session
 * cookie (same origin; browsers cannot add headers to a websocket). When it closes, the page says
 * so, reconnects with backoff, and meanwhile reads the same figures over REST every 5 s.
 * React reads it through useSyncExternalStore (subscribe / getSnapshot).
 */
import { api, sessionEnded } from '../api/client';
import { applyFrame, backoffSeconds, closeReason, StatusData, SUBS } from './status-model';

export type Link = { kind: 'connecting' } | { kind: 'live' } | { kind: 'down'; message: string; retryAt?: number; polling: boolean } | { kind: 'stopped'; message: string };

export interface LiveState {
  data: StatusData;
  link: Link;
  /** the last REST failure, if the fallback could not read the figures either */
  error?: string;
}

const POLL_MS = 5000;

export function statsSocketUrl(loc: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/api/ws/stats`;
}

export class LiveStats {
  private state: LiveState = { data: {}, link: { kind: 'connecting' } };
  private readonly listeners = new Set<() => void>();
  private ws?: WebSocket;
  private attempts = 0;
  private retryTimer?: ReturnType<typeof setTimeout>;
  private pollTimer?: ReturnType<typeof setInterval>;
  private disposed = false;

  constructor(private readonly url = statsSocketUrl()) {}

  readonly subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  readonly getSnapshot = (): LiveState => this.state;

  private set(patch: Partial<LiveState>): void {
    if (this.disposed) return;
    this.state = { ...this.state, ...patch };
    for (const fn of [...this.listeners]) fn();
  }

  /** Starts (again, after dispose: React's strict mode mounts twice). */
  start(): void {
    this.disposed = false;
    this.attempts = 0;
    void this.poll(); // figures at once, whatever the socket does
    this.connect();
  }

  /** Reconnects now (the person's "Reconnect" button). */
  reconnect(): void {
    clearTimeout(this.retryTimer);
    this.attempts = 0;
    this.ws?.close();
    this.connect();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.retryTimer);
    this.stopPolling();
    const ws = this.ws;
    this.ws = undefined;
    ws?.close(1000, 'page left');
  }

  private connect(): void {
    if (this.disposed) return;
    this.set({ link: { kind: 'connecting' } });
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      return this.closed(1006, (err as Error).message);
    }
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ Subs: SUBS }));
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let frame: unknown;
      try {
        frame = JSON.parse(String(e.data));
      } catch {
        return;
      }
      const resp = (frame as { Resp?: unknown })?.Resp;
      if (resp === 'ACK') {
        this.attempts = 0;
        this.stopPolling();
        return this.set({ link: { kind: 'live' }, error: undefined });
      }
      if (resp === 'ERROR') return this.set({ error: String((frame as { Error?: unknown }).Error ?? 'The service refused the subscription.') });
      this.set({ data: applyFrame(this.state.data, frame) });
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.closed(e.code, e.reason);
    };
  }

  private closed(code: number, reason: string): void {
    if (this.disposed) return;
    const { message, retry } = closeReason(code, reason);
    if (!retry) {
      this.stopPolling();
      this.set({ link: { kind: 'stopped', message } });
      // The session has ended: the console offers the sign-in page.
      if (code === 4401) sessionEnded();
      return;
    }
    const wait = backoffSeconds(this.attempts++);
    this.retryTimer = setTimeout(() => this.connect(), wait * 1000);
    this.startPolling();
    this.set({ link: { kind: 'down', message, retryAt: Date.now() + wait * 1000, polling: true } });
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => void this.poll(), POLL_MS);
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** The same figures over REST (GET /api/stats/…). */
  private async poll(): Promise<void> {
    const first = this.state.data.sysDesc === undefined;
    try {
      const [ping, idxStats, igstStats, sysDesc] = await Promise.all([
        api<Record<string, string>>('/api/stats/ping'),
        api<StatusData['idxStats']>('/api/stats/idxStats'),
        api<StatusData['igstStats']>('/api/stats/igstStats'),
        first ? api<StatusData['sysDesc']>('/api/stats/sysDesc') : Promise.resolve(this.state.data.sysDesc),
      ]);
      // Live frames win: a poll answered after the socket came up does not overwrite newer figures.
      if (this.state.link.kind === 'live' && !first) return;
      this.set({ data: { ...this.state.data, ping, idxStats, igstStats, sysDesc, updated: Date.now() }, error: undefined });
    } catch (err) {
      this.set({ error: `The statistics could not be read: ${(err as Error).message}` });
    }
  }
}
