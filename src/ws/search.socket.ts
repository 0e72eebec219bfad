import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { RawData, WebSocket } from 'ws';
import { authorize } from '../identity/auth.guard';
import { AuthContext } from '../identity/auth.types';
import { mapError } from '../common/http/error-filter';
import { IndexerService } from '../indexer/indexer.service';
import { LookupResources } from '../search/lookup-resources';
import { requireView } from '../searchctrl/searchctrl.access';
import { SearchCtrlService } from '../searchctrl/searchctrl.service';
import { handleRender, parseRenderRequest, RenderSub, REQ_CLOSE } from './search-render';
import { announceSearch, validateStartRequest } from './search-start';
import { PendingSearchBudget, PendingSearches, PendingTicket } from './pending-searches';
import { WsRefusalBrake } from './ws-refusal-brake';
import { CurrentAuth, sendJson, WsHub } from './ws-hub.service';

const ROUTES = ['PONG', 'parse', 'search', 'attach'] as const;
/** Render subprotocols (pending or live) one socket may hold at once. */
const MAX_SUBPROTOS = 64;
const MAX_QUERY = 65536;
/** Frames read but not yet handled, beyond which the socket stops reading (TCP pushes back on the client). */
const MAX_QUEUED_FRAMES = 16;
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

type Frame = Record<string, unknown>;

/**
 * `/api/ws/search` (product-notes §2.5): routing envelope `{"Subs": [...]}` then
 * `{"type", "data"}` frames on PONG, parse, search, attach and the render subprotocols
 * `search<N>` / `attach<N>` each bound to a search session, pinged while the socket is open.
 */
@Injectable()
export class SearchSocket implements OnModuleInit {
  readonly logger = new Logger(SearchSocket.name);

  constructor(
    private readonly hub: WsHub,
    readonly svc: SearchCtrlService,
    readonly indexer: IndexerService,
    readonly budget: PendingSearchBudget,
    readonly lookups: LookupResources,
    readonly brake: WsRefusalBrake,
  ) {}

  onModuleInit(): void {
    this.hub.register({ path: '/api/ws/search', capability: 'Search', open: (ws, auth, current) => new SearchConnection(this, ws, auth, current) });
  }
}

class SearchConnection {
  private routes?: Set<string>;
  private seq = 0;
  private readonly pending: PendingSearches;
  private queued = { frames: 0, bytes: 0 };
  /** Refusals (WsRefusalBrake) holding this socket's reading now. */
  private braked = 0;
  private readonly subs = new Map<string, RenderSub>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly owner: SearchSocket,
    private readonly ws: WebSocket,
    /** The caller's rights, read again for every frame. */
    private auth: AuthContext,
    private readonly current: CurrentAuth,
  ) {
    this.pinger = setInterval(() => this.ping(), Math.max(1, owner.svc.refreshInterval) * 1000);
    this.pinger.unref();
    this.pending = new PendingSearches(owner.budget, (subproto) => {
      const seconds = Math.round(owner.budget.config.wsPendingSearchTimeoutMs / 100) / 10;
      this.send('search', { Error: `The search on ${subproto} was not acknowledged within ${seconds} s and was dropped`, OutputSearchSubproto: subproto });
    });
    ws.on('message', (raw) => {
      const bytes = frameBytes(raw);
      this.queue(+1, bytes);
      this.chain = this.chain
        .then(() => this.onFrame(String(raw)))
        .catch((err: unknown) => owner.logger.error('search socket frame failed', err as Error))
        .finally(() => this.queue(-1, -bytes));
    });
    ws.on('close', () => void this.onClose());
  }

  /** Frames are handled one at a time; a client sending faster waits (the socket stops reading) instead of filling the heap. */
  private queue(frames: number, bytes: number): void {
    this.queued.frames += frames;
    this.queued.bytes += bytes;
    const over = this.braked > 0 || this.queued.frames > MAX_QUEUED_FRAMES || this.queued.bytes > MAX_QUEUED_BYTES;
    if (over && !this.ws.isPaused) this.ws.pause();
    else if (!over && this.ws.isPaused) this.ws.resume();
  }

  /** Answers a refused request; past the brake's count (WsRefusalBrake) the socket stops reading a while. */
  private refuse(type: string, error: string): void {
    this.send(type, { Error: error });
    const ms = this.owner.brake.refused(this.auth.uid);
    if (!ms) return;
    this.braked++;
    this.queue(0, 0);
    setTimeout(() => {
      this.braked--;
      this.queue(0, 0);
    }, ms).unref();
  }

  /**
   * The error frame of a failed request. Every failed search or attach counts for the brake (a
   * client that keeps sending one the service refuses, a query too large to compile, say, loops);
   * a parse only when it was too much (429), as a query being typed fails to parse all the time.
   */
  private fail(type: 'parse' | 'search' | 'attach', err: unknown): void {
    const { status, message } = mapError(err);
    if (type !== 'parse' || status === 429 || status === 413) this.refuse(type, message);
    else this.send(type, { Error: message });
  }

  private send(type: string, data: unknown): void {
    sendJson(this.ws, { type, data });
  }

  private async onFrame(raw: string): Promise<void> {
    if (this.closed) return;
    try {
      this.auth = await this.current();
    } catch (err) {
      // Rights taken away since the socket opened: nothing more is answered on it.
      const { status, message } = mapError(err);
      sendJson(this.ws, { Resp: 'ERROR', Error: message });
      return this.ws.close(status === 401 ? 4401 : 4403, message.slice(0, 120));
    }
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      return this.routes ? this.send('ERROR', { Error: 'Malformed JSON frame' }) : sendJson(this.ws, { Resp: 'ERROR', Error: 'Malformed JSON frame' });
    }
    if (!this.routes) return this.route(msg);
    const m = msg as { type?: unknown; data?: unknown } | null;
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') return this.send('ERROR', { Error: 'A frame must be {"type": <subprotocol>, "data": {...}}' });
    const type = m.type.slice(0, 64);
    const sub = this.subs.get(type);
    if (sub) return this.onRender(type, sub, m.data);
    if (!this.routes.has(type)) return this.send(type, { Error: `Unknown subprotocol ${JSON.stringify(type)}` });
    switch (type) {
      case 'PONG':
        return this.send('PONG', m.data ?? {});
      case 'parse':
        return this.parse(m.data);
      case 'search':
        return this.search(m.data);
      case 'attach':
        return this.attach(m.data);
    }
  }

  private route(msg: unknown): void {
    const subs = (msg as { Subs?: unknown } | null)?.Subs;
    const ok = Array.isArray(subs) && subs.length > 0 && subs.every((s) => ROUTES.includes(s as (typeof ROUTES)[number]));
    if (!ok) return sendJson(this.ws, { Resp: 'ERROR', Error: `Subs must be a non-empty list of ${ROUTES.join(', ')}` });
    this.routes = new Set(subs as string[]);
    sendJson(this.ws, { Resp: 'ACK' });
  }

  /** Described in a query worker, admitted per user as POST /api/parse is: a big query never holds the event loop. */
  private async parse(data: unknown): Promise<void> {
    const d = (data ?? {}) as { SearchString?: unknown; Sequence?: unknown };
    if (typeof d.SearchString !== 'string' || d.SearchString.length > MAX_QUERY) {
      return this.send('parse', { Error: `SearchString must be a string of at most ${MAX_QUERY} characters` });
    }
    const seq = typeof d.Sequence === 'number' && Number.isSafeInteger(d.Sequence) && d.Sequence >= 0 ? d.Sequence : 0;
    try {
      this.send('parse', { Sequence: seq, ...(await this.owner.lookups.describe(this.auth, d.SearchString)) });
    } catch (err) {
      this.fail('parse', err);
    }
  }

  private async search(data: unknown): Promise<void> {
    const d = data as { OutputSearchSubproto?: unknown; Ok?: unknown; OK?: unknown } | null;
    if (d && typeof d === 'object' && typeof d.OutputSearchSubproto === 'string' && !('SearchString' in d)) return this.ack(d.OutputSearchSubproto, d.Ok ?? d.OK);
    if (this.pending.size + this.subs.size >= MAX_SUBPROTOS) return this.refuse('search', `At most ${MAX_SUBPROTOS} searches per socket`);
    let ticket: PendingTicket | undefined;
    try {
      const dto = await validateStartRequest(data);
      // Counted before it compiles (by its length), then by its compiled query's, until the ACK.
      const admitted = this.pending.admit(this.auth.uid, dto.SearchString.length);
      if (typeof admitted === 'string') return this.refuse('search', admitted);
      ticket = admitted;
      const subproto = `search${++this.seq}`;
      const announced = await announceSearch(this.owner.svc, this.auth, dto, subproto);
      const refused = this.pending.hold(ticket, subproto, announced, announced.plan.search.compiled.parsed.effectiveQuery.length);
      if (refused) return this.refuse('search', refused);
      this.send('search', announced.response);
    } catch (err) {
      if (ticket) this.pending.cancel(ticket);
      this.fail('search', err);
    }
  }

  /** The client's answer to a StartSearchResponse: start the announced launch (with the caller's rights now), or drop it. */
  private ack(subproto: string, ok: unknown): void {
    const announced = this.pending.take(subproto);
    if (!announced) return this.send('search', { Error: `No search is waiting on ${JSON.stringify(subproto.slice(0, 64))}`, OutputSearchSubproto: subproto.slice(0, 64) });
    if (ok !== true) return;
    const sub = new RenderSub(announced.plan.id);
    this.subs.set(subproto, sub);
    // Render requests queue behind the launch.
    const { svc } = this.owner;
    const auth = this.auth;
    sub.queue = svc
      .authorize(auth, announced.plan)
      .then((prepared) => svc.start(auth, prepared))
      .then(
        async (res) => {
          sub.sid = res.SearchSessionID;
          if (this.closed || sub.stopped) await this.release(sub);
        },
        (err: unknown) => {
          sub.stop();
          this.subs.delete(subproto);
          this.send('search', { Error: mapError(err).message, OutputSearchSubproto: subproto });
        },
      );
  }

  private async attach(data: unknown): Promise<void> {
    const raw = (data as { ID?: unknown } | null)?.ID;
    const id = typeof raw === 'number' ? String(raw) : raw;
    if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) return this.send('attach', { Error: 'ID must be a numeric search ID' });
    if (this.pending.size + this.subs.size >= MAX_SUBPROTOS) return this.refuse('attach', `At most ${MAX_SUBPROTOS} searches per socket`);
    try {
      authorize({ capability: 'AttachSearch' }, this.auth);
      const res = await this.owner.svc.attach(this.auth, id);
      const subproto = `attach${++this.seq}`;
      const sub = new RenderSub(id, res.SearchSessionID);
      this.subs.set(subproto, sub);
      if (this.closed) return void (await this.release(sub));
      this.send('attach', { Subproto: subproto, RendererMod: res.RenderModule, RendererCmd: res.RenderCmd, Info: res.Info });
    } catch (err) {
      this.fail('attach', err);
    }
  }

  private onRender(subproto: string, sub: RenderSub, data: unknown): void {
    const req = parseRenderRequest(data);
    if (typeof req === 'string') return this.send(subproto, { ID: 0xffffffff, Error: req });
    if (req.ID === REQ_CLOSE) {
      // Stops any stream at once; the reply follows what was queued before it.
      sub.stop();
      this.subs.delete(subproto);
      sub.queue = sub.queue.then(async () => {
        this.send(subproto, { ID: REQ_CLOSE });
        await this.release(sub);
      });
      return;
    }
    const ctx = {
      search: () => this.owner.svc.find(sub.searchId),
      tagNames: () => this.owner.indexer.tagNames(),
      send: (frame: Frame) => this.send(subproto, frame),
      stopped: () => sub.stopped || this.closed,
      whenStopped: () => sub.halted,
    };
    const allowed = (): boolean => {
      try {
        requireView(this.auth, this.owner.svc.find(sub.searchId));
        return true;
      } catch (err) {
        this.send(subproto, { ID: req.ID, Error: mapError(err).message });
        return false;
      }
    };
    sub.queue = sub.queue
      .then(() => (sub.stopped || this.closed || !allowed() ? undefined : handleRender(ctx, req)))
      .catch((err: unknown) => {
        this.owner.logger.error(`search socket ${subproto} failed`, err as Error);
      });
  }

  /** Releases the session a subprotocol holds: the last one leaving a non-kept search ends it. */
  private async release(sub: RenderSub): Promise<void> {
    const sid = sub.sid;
    sub.sid = undefined;
    if (!sid) return;
    try {
      await this.owner.svc.release(sub.searchId, sid);
    } catch (err) {
      this.owner.logger.error(`search ${sub.searchId}: detach failed`, err as Error);
    }
  }

  /** The open socket keeps its sessions alive. */
  private ping(): void {
    for (const sub of this.subs.values()) if (sub.sid) this.owner.svc.keepAlive(sub.searchId, sub.sid);
  }

  private async onClose(): Promise<void> {
    this.closed = true;
    clearInterval(this.pinger);
    this.pending.clear();
    const subs = [...this.subs.values()];
    this.subs.clear();
    for (const sub of subs) {
      sub.stop();
      await sub.queue.catch(() => undefined);
      await this.release(sub);
    }
  }
}

const frameBytes = (raw: RawData): number => (Array.isArray(raw) ? raw.reduce((n, b) => n + b.length, 0) : raw instanceof ArrayBuffer ? raw.byteLength : raw.length);
