/** Rules of the search control API (contract "Search control"; product-notes §2.4, §2.7). */
import { Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { AuthContext } from '../auth/auth.types';
import { AppError, badRequest, forbidden, notFound, tooManyRequests, conflict } from '../common/errors/app-error';
import { IndexerService } from '../indexer/indexer.service';
import { LookupResources } from '../search/lookup-resources';
import { SearchHistoryService } from '../searchhistory/searchhistory.service';
import { UsersService } from '../users/users.service';
import { RenderStore } from './render-store';
import { rendererPage } from './search-results';
import { parseTime } from './search-time';
import { LiveSearch } from './search.model';
import { SearchLifecycle } from './search-lifecycle.service';
import { listedFor, requireModify, requireShareGroups, requireView } from './searchctrl.access';
import { LaunchResponseDto, OverviewStatsDto, PingDto, RendererQueryDto, SearchInfoDto, SearchSummaryDto, StartSearchRequestDto } from './searchctrl.dto';
import { SearchCtrlRepository } from './searchctrl.repository';
import { requireSavedQuota } from './search-registry';
import { toOverviewStats, toSearchInfo, toSearchSummary } from './searchctrl.views';

const DEFAULT_RANGE_MS = 3600_000;

@Injectable()
export class SearchCtrlService {
  constructor(
    private readonly life: SearchLifecycle,
    private readonly repo: SearchCtrlRepository,
    private readonly history: SearchHistoryService,
    private readonly users: UsersService,
    readonly lookups: LookupResources,
    @Optional() private readonly indexer?: IndexerService,
  ) {}

  /** A renderer page (product-notes §2.4/§2.6); viewing with a session id counts as a ping. */
  renderer(auth: AuthContext, id: string, renderer: string, q: RendererQueryDto): Promise<Record<string, unknown>> {
    const indexer = this.indexer;
    return rendererPage(this.view(auth, id, q.sid), renderer, q, async () => (indexer ? indexer.tagNames() : new Map()));
  }

  get registry() {
    return this.life.registry;
  }

  /** `opts.id`: an ID reserved earlier (the websocket protocol announces it before the client's ACK). */
  async launch(auth: AuthContext, req: StartSearchRequestDto, opts: { id?: string } = {}): Promise<LaunchResponseDto> {
    const end = parseTime(req.SearchEnd, 'SearchEnd') ?? new Date();
    const start = parseTime(req.SearchStart, 'SearchStart') ?? new Date(end.getTime() - DEFAULT_RANGE_MS);
    if (start.getTime() > end.getTime()) throw badRequest('SearchStart must not be after SearchEnd');
    const { compiled, resources } = await this.lookups.prepare(auth, req.SearchString, { start, end });
    const gids = await this.sharingGroups(auth, req.GIDs);
    if (req.Global && !auth.isAdmin) throw forbidden('Only admins may set Global');
    const limit = this.life.config.maxSearchesPerUser;
    if (this.registry.liveCountOf(auth.uid) >= limit) {
      throw tooManyRequests(`Too many searches: at most ${limit} unsaved searches per user; delete or detach from one first`, this.life.config.searchPingTimeoutSeconds);
    }
    if (opts.id !== undefined && this.registry.get(opts.id)) throw conflict('That search ID is already in use; start the search again');
    const id = opts.id ?? this.registry.newId();
    const store = await RenderStore.create(path.join(this.life.paths.active, id), this.life.config.renderStoreLimitBytes);
    const sid = randomUUID();
    const parsed = compiled.parsed;
    const s: LiveSearch = {
      id, uid: auth.uid, gids, global: req.Global ?? false, userQuery: req.SearchString, effectiveQuery: parsed.effectiveQuery,
      start: compiled.start, end: compiled.end, renderModule: compiled.renderModule,
      renderCmd: [parsed.renderer.name, ...parsed.renderer.args.map((a) => (a.quoted ? JSON.stringify(a.value) : a.value))].join(' '),
      downloadFormats: [...compiled.downloadFormats], collapsingIndex: compiled.collapsingIndex,
      queryTimeSpecified: compiled.queryTimeSpecified, noHistory: req.NoHistory ?? false, preview: req.Preview ?? false,
      name: req.Name ?? '', metadata: req.Metadata, saveMetadata: undefined, launchInfo: req.LaunchInfo,
      flags: { clients: 1, finished: false, backgrounded: req.Background ?? false, saveRequested: false, saved: false },
      sessions: new Map([[sid, Date.now()]]), started: new Date(), progress: { entriesScanned: 0, bytesScanned: 0, finished: false },
      store, moving: false, removed: false, resources,
    };
    this.registry.add(s);
    try {
      this.life.run(s);
    } catch (err) {
      await this.life.remove(s);
      throw err;
    }
    // Built before any await: the run cannot have finished yet, so Info.Finished is the zero time.
    const response = this.launchResponse(s, sid);
    if (!s.noHistory) {
      await this.history.record({ uid: s.uid, gid: s.gids[0] ?? 0, gids: s.gids, global: s.global, userQuery: s.userQuery, effectiveQuery: s.effectiveQuery, launched: s.started });
    }
    return response;
  }

  /**
   * The groups a new search is shared with: those the request names (the caller must belong to
   * them), else the caller's current default search group (users rule 7) while they belong to it.
   */
  async sharingGroups(auth: AuthContext, requested: number[] | undefined): Promise<number[]> {
    const gids = [...new Set(requested ?? [])];
    requireShareGroups(auth, gids);
    if (gids.length) return gids;
    const fallback = await this.users.searchGroup(auth, auth.uid);
    return fallback !== 0 && auth.gids.includes(fallback) ? [fallback] : [];
  }

  private launchResponse(s: LiveSearch, sid: string): LaunchResponseDto {
    return { SearchSessionID: sid, RefreshInterval: this.life.refreshInterval, SearchID: s.id, RenderModule: s.renderModule, RenderCmd: s.renderCmd, Info: toSearchInfo(s), Messages: [] };
  }

  async attach(auth: AuthContext, id: string): Promise<LaunchResponseDto> {
    const s = requireView(auth, this.registry.get(id));
    const sid = randomUUID();
    s.sessions.set(sid, Date.now());
    await this.life.apply(s, { kind: 'attach' });
    return this.launchResponse(s, sid);
  }

  private session(s: LiveSearch, sid: string | undefined): string {
    if (!sid || !s.sessions.has(sid)) throw notFound('Search session');
    return sid;
  }

  ping(auth: AuthContext, id: string, sid: string | undefined, _dto: PingDto): { Interval: number } {
    const s = requireView(auth, this.registry.get(id));
    s.sessions.set(this.session(s, sid), Date.now());
    return { Interval: this.life.refreshInterval };
  }

  async detach(auth: AuthContext, id: string, sid: string | undefined): Promise<void> {
    const s = requireView(auth, this.registry.get(id));
    s.sessions.delete(this.session(s, sid));
    await this.life.apply(s, { kind: 'detach' });
  }

  /** Viewing with a session id counts as a ping. */
  view(auth: AuthContext, id: string, sid?: string): LiveSearch {
    const s = requireView(auth, this.registry.get(id));
    if (sid !== undefined) s.sessions.set(this.session(s, sid), Date.now());
    return s;
  }

  stats(auth: AuthContext, id: string, sid?: string): OverviewStatsDto {
    return toOverviewStats(this.view(auth, id, sid));
  }

  list(auth: AuthContext, adminMode: boolean): SearchSummaryDto[] {
    return this.registry
      .all()
      .filter((s) => listedFor(auth, s, adminMode))
      .sort((a, b) => a.started.getTime() - b.started.getTime())
      .map(toSearchSummary);
  }

  listDetails(auth: AuthContext, adminMode: boolean): SearchInfoDto[] {
    return this.registry
      .all()
      .filter((s) => listedFor(auth, s, adminMode))
      .sort((a, b) => a.started.getTime() - b.started.getTime())
      .map(toSearchInfo);
  }

  info(auth: AuthContext, id: string): SearchInfoDto {
    return toSearchInfo(requireView(auth, this.registry.get(id)));
  }

  async background(auth: AuthContext, id: string): Promise<void> {
    await this.life.apply(requireView(auth, this.registry.get(id)), { kind: 'background' });
  }

  async save(auth: AuthContext, id: string, metadata: unknown): Promise<void> {
    const s = requireModify(auth, this.registry.get(id));
    if (!s.flags.saved && !s.flags.saveRequested) requireSavedQuota(this.registry, s.uid, s.store.storeSize + s.store.indexSize, this.life.config.savedSearchQuotaBytes);
    if (metadata !== undefined && metadata !== null) {
      s.saveMetadata = metadata;
      if (s.flags.saved) await this.repo.updateSaveMetadata(s.id, metadata);
    }
    await this.life.apply(s, { kind: 'save' });
  }

  async stop(auth: AuthContext, id: string): Promise<void> {
    await this.life.apply(requireModify(auth, this.registry.get(id)), { kind: 'stop' });
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.life.apply(requireModify(auth, this.registry.get(id)), { kind: 'delete' });
  }

  async setGroups(auth: AuthContext, id: string, gids: number[]): Promise<void> {
    const s = requireModify(auth, this.registry.get(id));
    const unique = [...new Set(gids)];
    requireShareGroups(auth, unique);
    s.gids = unique;
    if (s.flags.saved) await this.repo.updateSharing(s.id, s.gids, s.global);
  }

  async setGlobal(auth: AuthContext, id: string, global: boolean): Promise<void> {
    const s = this.registry.get(id);
    if (!s || s.removed) throw notFound('Search');
    if (!auth.isAdmin) throw new AppError(403, 'Only admins may set Global');
    s.global = global;
    if (s.flags.saved) await this.repo.updateSharing(s.id, s.gids, s.global);
  }
}
