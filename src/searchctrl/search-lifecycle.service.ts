/**
 * Lifecycle of persistent searches: running them, applying state transitions, the ping sweep,
 * deleting, moving saved results to the saved area, and reloading saved searches at start-up.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { AppError, serviceUnavailable } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { SearchExecutor } from '../indexer/search-executor';
import { configureResults, RenderStore } from './render-store';
import { failureOf, storedFailure } from './search-failure';
import { LiveSearch } from './search.model';
import { SearchRegistry } from './search-registry';
import { shouldMoveToSaved, transition, Trigger } from './search-state';
import { SavedSearchRow, SearchCtrlRepository } from './searchctrl.repository';

export interface StorePaths {
  active: string;
  saved: string;
  tmp: string;
}

/**
 * Moves a directory: a rename on the same filesystem; across filesystems (EXDEV) a full copy
 * (the caller removes the original once it switched over). Returns true when it copied.
 */
export async function moveDirectory(from: string, to: string, rename: typeof fsp.rename = fsp.rename): Promise<boolean> {
  try {
    await rename(from, to);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fsp.cp(from, to, { recursive: true, errorOnExist: true, force: false });
    return true;
  }
}

@Injectable()
export class SearchLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SearchLifecycle.name);
  private sweepTimer?: NodeJS.Timeout;
  readonly paths: StorePaths;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    readonly registry: SearchRegistry,
    private readonly repo: SearchCtrlRepository,
    @Optional() private readonly executor?: SearchExecutor,
  ) {
    configureResults({ cacheBytes: config.resultCacheBytes, maxResultBytes: config.maxResultBytes });
    const root = path.join(config.dataDir, 'searches');
    this.paths = { active: path.join(root, 'active'), saved: path.join(root, 'saved'), tmp: path.join(root, 'tmp') };
  }

  /** Seconds between pings the server asks for. */
  get refreshInterval(): number {
    return Math.max(1, Math.floor(this.config.searchPingTimeoutSeconds / 3));
  }

  async onApplicationBootstrap(): Promise<void> {
    // Unsaved searches do not survive a restart: clear their leftovers.
    await fsp.rm(this.paths.active, { recursive: true, force: true });
    await fsp.rm(this.paths.tmp, { recursive: true, force: true });
    for (const p of Object.values(this.paths)) await fsp.mkdir(p, { recursive: true, mode: 0o700 });
    const rows = await this.repo.listAll();
    const known = new Set(rows.map((r) => r.id));
    for (const row of rows) {
      const dir = path.join(this.paths.saved, row.id);
      try {
        this.registry.add(this.fromRow(row, await RenderStore.open(dir, this.config.renderStoreLimitBytes)));
      } catch (err) {
        this.logger.warn(`saved search ${row.id}: results unreadable (${(err as Error).message}); keeping metadata only`);
      }
    }
    for (const name of await fsp.readdir(this.paths.saved)) {
      if (!known.has(name)) await fsp.rm(path.join(this.paths.saved, name), { recursive: true, force: true });
    }
    const every = Math.max(200, Math.min(5000, (this.config.searchPingTimeoutSeconds * 1000) / 4));
    this.sweepTimer = setInterval(() => this.sweep(), every);
    this.sweepTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const s of this.registry.all()) {
      s.abort?.abort();
      await s.store.close();
    }
  }

  fromRow(row: SavedSearchRow, store: RenderStore): LiveSearch {
    return {
      id: row.id, uid: row.uid, gids: row.gids, global: row.global, userQuery: row.userQuery, effectiveQuery: row.effectiveQuery,
      start: row.start, end: row.end, renderModule: row.renderModule, renderCmd: row.renderCmd, downloadFormats: row.downloadFormats,
      collapsingIndex: row.collapsingIndex, queryTimeSpecified: row.queryTimeSpecified, noHistory: row.noHistory, preview: false,
      name: row.name, metadata: row.metadata, saveMetadata: row.saveMetadata, launchInfo: row.launchInfo, import: row.importInfo ?? undefined,
      flags: { clients: 0, finished: true, backgrounded: row.backgrounded, saveRequested: false, saved: true },
      sessions: new Map(), started: row.started, finishedAt: row.finished, failure: row.error ? storedFailure(row.error) : undefined,
      progress: { entriesScanned: 0, bytesScanned: 0, finished: true }, store, moving: false, removed: false,
    };
  }

  toRow(s: LiveSearch): SavedSearchRow {
    return {
      id: s.id, uid: s.uid, gids: s.gids, global: s.global, userQuery: s.userQuery, effectiveQuery: s.effectiveQuery, start: s.start,
      end: s.end, started: s.started, finished: s.finishedAt ?? new Date(), renderModule: s.renderModule, renderCmd: s.renderCmd,
      downloadFormats: s.downloadFormats, collapsingIndex: s.collapsingIndex, queryTimeSpecified: s.queryTimeSpecified,
      noHistory: s.noHistory, backgrounded: s.flags.backgrounded, name: s.name, metadata: s.metadata, saveMetadata: s.saveMetadata,
      launchInfo: s.launchInfo, importInfo: s.import ?? null, error: s.failure?.reason ?? null, overLimit: s.store.overLimit,
      storeSize: s.store.storeSize, indexSize: s.store.indexSize,
    };
  }

  /**
   * Starts the run of a registered search in the background. Throws (and starts nothing) when
   * the executor would refuse it now: too many searches running and waiting is the launch's 429.
   */
  run(s: LiveSearch): void {
    const executor = this.executor;
    if (!executor) throw serviceUnavailable('The search engine is not available');
    executor.admit(s.uid);
    const ac = new AbortController();
    s.abort = ac;
    const sink = { entries: (batch: Parameters<RenderStore['append']>[0]) => s.store.append(batch) };
    executor
      .run(s.userQuery, { start: s.start, end: s.end }, sink, {
        signal: ac.signal,
        timeoutMs: this.config.searchTimeoutMs,
        retainEntries: false,
        owner: s.uid,
        ...s.resources,
        onProgress: (p) => (s.progress = p),
      })
      .then(async (r) => {
        s.progress = { ...r.progress, finished: true };
        await s.store.finish(r.result);
      })
      .catch(async (err: unknown) => {
        if (!ac.signal.aborted) {
          s.failure = failureOf(err);
          if (!(err instanceof AppError)) this.logger.error(`search ${s.id} failed`, err as Error);
        }
        await s.store.close();
      })
      .finally(() => {
        s.resources = undefined;
        s.finishedAt = new Date();
        s.progress = { ...s.progress, finished: true };
        if (!s.removed) void this.apply(s, { kind: 'finish' });
      })
      .catch((err: unknown) => this.logger.error(`search ${s.id}: finishing failed`, err as Error));
  }

  /**
   * Applies a trigger: throws the transition's error (state unchanged), cancels the run,
   * removes the search, or starts the move to the saved area, as the outcome says.
   */
  async apply(s: LiveSearch, t: Trigger): Promise<void> {
    const out = transition(s.flags, t);
    if (!out.ok) throw new AppError(out.status, out.error);
    s.flags = { ...out.next, clients: s.sessions.size };
    if (out.cancel) s.abort?.abort();
    if (out.deleted) return this.remove(s);
    if (shouldMoveToSaved(s.flags) && !s.moving) void this.moveToSaved(s);
  }

  /** Deletes a search and its stored results at once. */
  async remove(s: LiveSearch): Promise<void> {
    s.removed = true;
    s.sessions.clear();
    s.abort?.abort();
    this.registry.remove(s.id);
    await s.store.close();
    await fsp.rm(s.store.dir, { recursive: true, force: true });
    await fsp.rm(path.join(this.paths.saved, s.id), { recursive: true, force: true });
    await this.repo.delete(s.id);
  }

  /** Same filesystem: rename; otherwise a full copy, then the original is removed. Never awaited by requests. */
  private async moveToSaved(s: LiveSearch): Promise<void> {
    s.moving = true;
    const target = path.join(this.paths.saved, s.id);
    try {
      await s.store.close();
      const from = s.store.dir;
      const copied = await moveDirectory(from, target);
      s.store = await RenderStore.open(target, this.config.renderStoreLimitBytes);
      if (copied) await fsp.rm(from, { recursive: true, force: true });
      if (s.removed) {
        await fsp.rm(target, { recursive: true, force: true });
        return;
      }
      await this.repo.insert(this.toRow(s));
      if (s.removed) return void (await this.repo.delete(s.id));
      const out = transition(s.flags, { kind: 'saved' });
      if (out.ok) s.flags = { ...out.next, clients: s.sessions.size };
    } catch (err) {
      this.logger.error(`search ${s.id}: moving results to the saved area failed`, err as Error);
      s.failure = { status: 500, reason: 'Saving the results failed' };
    } finally {
      s.moving = false;
    }
  }

  /** Detaches sessions that stopped pinging. */
  sweep(): void {
    const deadline = Date.now() - this.config.searchPingTimeoutSeconds * 1000;
    for (const s of this.registry.all()) {
      for (const [sid, last] of s.sessions) {
        if (last < deadline) {
          s.sessions.delete(sid);
          this.apply(s, { kind: 'detach' }).catch((err: unknown) => this.logger.error(`search ${s.id}: detach failed`, err as Error));
        }
      }
    }
  }
}
