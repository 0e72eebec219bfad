/** Rules of the search control API (contract "Search control"; product-notes §2.4, §2.7). */
import { Injectable } from '@nestjs/common';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { AuthContext } from '../identity/auth.types';
import { requireMayShareWith } from '../sharing/shareable';
import { refusal } from '../common/errors/app-error';
import { IndexerService } from '../indexer/indexer.service';
import { LookupResources } from '../search/lookup-resources';
import { SearchHistoryService } from '../searchhistory/searchhistory.service';
import { UsersService } from '../users/users.service';
import { sideEffectsOf } from '../query/side-effects';
import { LaunchOrigins, requireConsentToSideEffects } from './launch-origin';
import { RenderStore } from './render-store';
import { rendererStream } from './search-results';
import { parseTime } from './search-time';
import { LaunchPlan, LiveSearch, newLiveSearch, PreparedLaunch } from './search.model';
import { SearchLifecycle } from './search-lifecycle.service';
import { listedFor, requireControl, requireModify, requireView } from './searchctrl.access';
import { LaunchResponseDto, OverviewStatsDto, PingDto, RendererQueryDto, SearchInfoDto, SearchSummaryDto, StartSearchRequestDto } from './searchctrl.dto';
import { SearchCtrlRepository } from './searchctrl.repository';
import { toOverviewStats, toSearchInfo, toSearchSummary } from './searchctrl.views';

const DEFAULT_RANGE_MS = 3600_000;

@Injectable()
export class SearchCtrlService {
  constructor(
    private readonly life: SearchLifecycle,
    private readonly repo: SearchCtrlRepository,
    private readonly history: SearchHistoryService,
    private readonly users: UsersService,
    private readonly lookups: LookupResources,
    private readonly indexer: IndexerService,
    private readonly origins: LaunchOrigins,
  ) {}

  /**
   * A renderer page (product-notes §2.4/§2.6) as a stream of JSON: at most RENDER_PAGE_MAX_BYTES
   * of entries, copied from the render store, one page of the caller's at a time
   * (RENDER_PAGES_PER_USER). Viewing with a session id counts as a ping.
   */
  renderer(auth: AuthContext, id: string, renderer: string, q: RendererQueryDto): Promise<Readable> {
    return rendererStream(auth.uid, this.view(auth, id, q.sid), renderer, q, () => this.indexer.tagNames());
  }

  private get registry() {
    return this.life.registry;
  }

  /** Seconds between the pings a client should send. */
  get refreshInterval(): number {
    return this.life.refreshInterval;
  }

  /** A search that exists now, without an access check (callers check with searchctrl.access). */
  find(id: string): LiveSearch | undefined {
    const s = this.registry.get(id);
    return s && !s.flags.removed ? s : undefined;
  }

  /** The IDs of the searches this instance holds (scheduled searches drop their expired results). */
  heldIds(): string[] {
    return this.registry.all().map((s) => s.id);
  }

  /** POST launch: prepare, then start. */
  async launch(auth: AuthContext, req: StartSearchRequestDto): Promise<LaunchResponseDto> {
    return this.start(auth, await this.prepare(auth, req));
  }

  /**
   * Resolves the range (default: the last hour up to now), compiles the query once (400 for a bad
   * one) and checks the caller's rights (`authorize`). Nothing runs yet; the ID is chosen here.
   */
  async prepare(auth: AuthContext, req: StartSearchRequestDto): Promise<PreparedLaunch> {
    const now = new Date();
    const end = parseTime(req.SearchEnd, 'SearchEnd') ?? now;
    const start = parseTime(req.SearchStart, 'SearchStart') ?? new Date(end.getTime() - DEFAULT_RANGE_MS);
    if (start.getTime() > end.getTime()) throw refusal('SEARCH_START_AFTER_END');
    // Admitted before any work: a launch that would be refused compiles nothing and reads no table.
    this.requireRoom(auth);
    const { search, facts } = await this.lookups.compile(auth, req.SearchString, { start, end }, now);
    const r = search.compiled.parsed.renderer;
    const renderCmd = [r.name, ...r.args.map((a) => (a.quoted ? JSON.stringify(a.value) : a.value))].join(' ');
    const plan: LaunchPlan = {
      id: this.registry.newId(),
      request: req,
      search,
      gids: req.GIDs ?? [],
      global: req.Global ?? false,
      renderCmd,
      timeZoomDisabled: facts.timeZoomDisabled,
    };
    return this.authorize(auth, plan);
  }

  /** 429 when the caller may not start another search now: MAX_SEARCHES_PER_USER unsaved ones, or their running and waiting searches (SEARCH_CONCURRENCY_PER_USER, SEARCH_QUEUE). */
  private requireRoom(auth: AuthContext): void {
    const limit = this.life.config.maxSearchesPerUser;
    if (this.registry.liveCountOf(auth.uid) >= limit) {
      throw refusal('TOO_MANY_SEARCHES', limit).retryAfter(this.life.config.searchPingTimeoutSeconds);
    }
    this.life.admit(auth.uid);
  }

  /**
   * The caller's rights on a plan, as they are now: the tables its query reads (403/400), its
   * groups (`sharingGroups`) and Global (admins). The websocket runs it again at the client's ACK.
   */
  async authorize(auth: AuthContext, plan: LaunchPlan): Promise<PreparedLaunch> {
    const origin = await this.origins.of(auth, plan.request.LaunchInfo);
    requireConsentToSideEffects(origin, sideEffectsOf(plan.search.compiled.parsed), plan.request.ConfirmSideEffects);
    const resources = await this.lookups.resolve(auth, plan.search);
    if (origin.privateToCaller) return { ...plan, gids: [], global: false, resources };
    const gids = await this.sharingGroups(auth, plan.gids);
    if (plan.global && !auth.isAdmin) throw refusal('GLOBAL_ADMIN_ONLY');
    return { ...plan, gids, resources };
  }

  /** Registers a prepared search with one session and starts its run (REST and websocket alike). */
  async start(auth: AuthContext, p: PreparedLaunch): Promise<LaunchResponseDto> {
    this.requireRoom(auth);
    if (this.registry.get(p.id)) throw refusal('SEARCH_ID_IN_USE');
    const account = this.registry.quotas.open(auth.uid);
    const store = await RenderStore.create(path.join(this.life.paths.active, p.id), this.life.config.renderStoreLimitBytes, account);
    const s = newLiveSearch(auth.uid, p, store, account);
    const sid = await this.life.launch(s, p.search, p.resources);
    // The run cannot have finished yet (it needs I/O first), so Info.Finished is the zero time.
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
    requireMayShareWith(auth, gids);
    if (gids.length) return gids;
    const fallback = await this.users.searchGroup(auth, auth.uid);
    return fallback !== 0 && auth.gids.includes(fallback) ? [fallback] : [];
  }

  private launchResponse(s: LiveSearch, sid: string): LaunchResponseDto {
    return {
      SearchSessionID: sid,
      RefreshInterval: this.life.refreshInterval,
      SearchID: s.id,
      RenderModule: s.renderModule,
      RenderCmd: s.renderCmd,
      Info: toSearchInfo(s),
      Messages: [],
    };
  }

  async attach(auth: AuthContext, id: string): Promise<LaunchResponseDto> {
    const s = requireView(auth, this.registry.get(id));
    return this.launchResponse(s, await this.life.attach(s));
  }

  ping(auth: AuthContext, id: string, sid: string | undefined, _dto: PingDto): { Interval: number } {
    this.view(auth, id, sid ?? '');
    return { Interval: this.life.refreshInterval };
  }

  async detach(auth: AuthContext, id: string, sid: string | undefined): Promise<void> {
    const s = requireView(auth, this.registry.get(id));
    if (!sid || !(await this.life.detach(s, sid))) throw refusal('SEARCH_SESSION_NOT_FOUND');
  }

  /** Viewing with a session id counts as a ping (404 for a session the search does not have). */
  view(auth: AuthContext, id: string, sid?: string): LiveSearch {
    const s = requireView(auth, this.registry.get(id));
    if (sid !== undefined && !this.life.touch(s, sid)) throw refusal('SEARCH_SESSION_NOT_FOUND');
    return s;
  }

  /** A websocket's own session of a search: pinged while the socket is open. */
  keepAlive(id: string, sid: string): void {
    const s = this.find(id);
    if (s) this.life.touch(s, sid);
  }

  /** A websocket's own session of a search, released when its subprotocol or socket closes. */
  async release(id: string, sid: string): Promise<void> {
    const s = this.find(id);
    if (s) await this.life.detach(s, sid);
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
    // From now on its results count as saved, also those it stores while it runs on (409/413 when they cannot).
    if (!s.flags.saved && !s.flags.saveRequested) s.account.markSaved();
    if (metadata !== undefined && metadata !== null) {
      s.saveMetadata = metadata;
      if (s.flags.saved) await this.repo.updateSaveMetadata(s.id, metadata);
    }
    await this.life.apply(s, { kind: 'save' });
  }

  async stop(auth: AuthContext, id: string): Promise<void> {
    await this.life.apply(requireControl(auth, this.registry.get(id)), { kind: 'stop' });
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    await this.life.apply(requireControl(auth, this.registry.get(id)), { kind: 'delete' });
  }

  async setGroups(auth: AuthContext, id: string, gids: number[]): Promise<void> {
    const s = requireModify(auth, this.registry.get(id));
    const unique = [...new Set(gids)];
    requireMayShareWith(auth, unique);
    s.gids = unique;
    if (s.flags.saved) await this.repo.updateSharing(s.id, s.gids, s.global);
  }

  async setGlobal(auth: AuthContext, id: string, global: boolean): Promise<void> {
    const s = this.registry.get(id);
    if (!s || s.flags.removed) throw refusal('SEARCH_NOT_FOUND');
    if (!auth.isAdmin) throw refusal('GLOBAL_ADMIN_ONLY');
    s.global = global;
    if (s.flags.saved) await this.repo.updateSharing(s.id, s.gids, s.global);
  }
}
