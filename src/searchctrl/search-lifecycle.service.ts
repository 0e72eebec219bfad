/**
 * Lifecycle of persistent searches: running them, applying state transitions, attaching,
 * pinging and detaching sessions (nothing else touches them), the ping sweep, deleting, moving
 * saved results to the saved area, and reloading saved searches at start-up.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { AppError } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { CompiledSearch, SearchExecutor, SearchResources, SearchSink } from '../indexer/search-executor';
import { resultKindOf, streamsEntries } from '../query';
import { RenderStore } from './render-store';
import { failureOf } from './search-failure';
import { liveSearchFromRow, LiveSearch, rowOf } from './search.model';
import { SearchRegistry } from './search-registry';
import { SearchSessions } from './search-sessions';
import { transition, Trigger } from './search-state';
import { configureResults } from './stored-result';
import { configurePages } from './search-results';
import { SearchCtrlRepository } from './searchctrl.repository';

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
  private readonly sessions = new SearchSessions();
  readonly paths: StorePaths;

  constructor(
    @Inject(APP_CONFIG) readonly config: AppConfig,
    readonly registry: SearchRegistry,
    private readonly repo: SearchCtrlRepository,
    private readonly executor: SearchExecutor,
  ) {
    configureResults({ cacheBytes: config.resultCacheBytes, maxResultBytes: config.maxResultBytes });
    configurePages({ maxBytes: config.renderPageMaxBytes, perUser: config.renderPagesPerUser, queue: config.renderPageQueue });
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
        const account = this.registry.quotas.open(row.uid);
        const store = await RenderStore.open(dir, this.config.renderStoreLimitBytes, account);
        account.restoreSaved(store.storeSize + store.indexSize);
        store.overLimit = row.overLimit;
        this.registry.add(liveSearchFromRow(row, store, account));
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

  /**
   * Registers a new search, attaches its first session and starts its run in the background.
   * Throws (and leaves nothing behind) when the executor would refuse it now: too many searches
   * running and waiting is the launch's 429.
   */
  async launch(s: LiveSearch, search: CompiledSearch, resources: SearchResources): Promise<string> {
    this.registry.add(s);
    const sid = await this.attach(s);
    try {
      this.run(s, search, resources);
    } catch (err) {
      await this.apply(s, { kind: 'delete' });
      throw err;
    }
    return sid;
  }

  /** Throws the 429 the executor would refuse a search of `uid` with now (see SearchExecutor.admit). */
  admit(uid: number): void {
    this.executor.admit(uid);
  }

  private run(s: LiveSearch, search: CompiledSearch, resources: SearchResources): void {
    this.executor.admit(s.uid);
    const ac = new AbortController();
    s.abort = ac;
    const sink: SearchSink = { entries: (batch) => s.store.append(batch), encoded: (batch) => s.store.appendEncoded(batch) };
    this.executor
      .runCompiled(search, sink, {
        signal: ac.signal,
        timeoutMs: this.config.searchTimeoutMs,
        retainEntries: false,
        // Entries the renderer only passes on (text, raw, hex) are encoded as stored lines in the scan workers.
        encode: streamsEntries(resultKindOf(s.renderModule)) ? 'json' : undefined,
        owner: s.uid,
        ...resources,
        onProgress: (p) => (s.progress = p),
      })
      .then(async (r) => {
        s.progress = { ...r.progress, finished: true };
        s.warnings = r.result.Warnings;
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
        s.finishedAt = new Date();
        s.progress = { ...s.progress, finished: true };
        return this.apply(s, { kind: 'finish' });
      })
      .catch((err: unknown) => this.logger.error(`search ${s.id}: finishing failed`, err as Error));
  }

  /**
   * Applies a trigger: throws the transition's error (state unchanged), else takes the next
   * state and does what it says: cancel the run, remove the search, start the move to the saved area.
   */
  async apply(s: LiveSearch, t: Trigger): Promise<void> {
    const out = transition(s.flags, t);
    if (!out.ok) throw new AppError(out.status, out.error, {}, out.code);
    const startsMove = out.next.moving && !s.flags.moving;
    s.flags = out.next;
    // Readers following the results (render store) see the new state at once.
    s.store.notify();
    if (out.cancel) s.abort?.abort();
    if (out.deleted) return this.remove(s);
    if (startsMove) void this.moveToSaved(s);
  }

  /** Attaches a session (one client more); answers its ID. */
  async attach(s: LiveSearch): Promise<string> {
    await this.apply(s, { kind: 'attach' });
    return this.sessions.open(s);
  }

  /** A ping of a session; false when the search has no such session. */
  touch(s: LiveSearch, sid: string): boolean {
    return this.sessions.touch(s, sid);
  }

  /** Detaches a session: the last one leaving a search that is not kept removes it. False when the search has no such session. */
  async detach(s: LiveSearch, sid: string): Promise<boolean> {
    if (!this.sessions.close(s, sid)) return false;
    await this.apply(s, { kind: 'detach' });
    return true;
  }

  /** Deletes a removed search's stored results at once (its state says removed: see `apply`). */
  private async remove(s: LiveSearch): Promise<void> {
    this.sessions.closeAll(s);
    this.registry.remove(s.id);
    await s.store.close();
    s.account.release();
    await fsp.rm(s.store.dir, { recursive: true, force: true });
    await fsp.rm(path.join(this.paths.saved, s.id), { recursive: true, force: true });
    await this.repo.delete(s.id);
  }

  /** Same filesystem: rename; otherwise a full copy, then the original is removed. Never awaited by requests. */
  private async moveToSaved(s: LiveSearch): Promise<void> {
    const target = path.join(this.paths.saved, s.id);
    try {
      await s.store.close();
      const from = s.store.dir;
      const { overLimit, droppedRange } = s.store;
      const copied = await moveDirectory(from, target);
      s.store = await RenderStore.open(target, this.config.renderStoreLimitBytes, s.account);
      // What was cut stays known (OverLimit, LimitDroppedRange), in memory and in the saved row.
      s.store.overLimit = overLimit;
      s.store.droppedRange = droppedRange;
      if (copied) await fsp.rm(from, { recursive: true, force: true });
      if (s.flags.removed) return void (await fsp.rm(target, { recursive: true, force: true }));
      await this.repo.insert(rowOf(s));
      if (s.flags.removed) return void (await this.repo.delete(s.id));
      await this.apply(s, { kind: 'saved' });
    } catch (err) {
      this.logger.error(`search ${s.id}: moving results to the saved area failed`, err as Error);
      s.failure = { status: 500, reason: 'Saving the results failed' };
      await this.apply(s, { kind: 'saveFailed' }).catch(() => undefined);
    }
  }

  /** Detaches sessions that stopped pinging. */
  sweep(): void {
    const deadline = Date.now() - this.config.searchPingTimeoutSeconds * 1000;
    for (const s of this.registry.all()) {
      for (const sid of this.sessions.stale(s, deadline)) {
        this.detach(s, sid).catch((err: unknown) => this.logger.error(`search ${s.id}: detach failed`, err as Error));
      }
    }
  }
}
