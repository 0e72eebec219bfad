/** Downloads (json, csv, text, archive) and archive import (product-notes §2.7 Downloads). */
import { Injectable, OnModuleDestroy, StreamableFile } from '@nestjs/common';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { AuthContext } from '../identity/auth.types';
import { requireMayShareWith } from '../sharing/shareable';
import { formatBytes, refusal } from '../common/errors/app-error';
import { IndexerService } from '../indexer/indexer.service';
import { DOWNLOAD_CONTENT_TYPES, DOWNLOAD_EXTENSIONS } from '../query';
import { TaskOutOfMemory, TaskWorkers } from '../search/task-workers';
import { UserGate } from '../common/concurrency/user-gate';
import { archiveStream, ImportedArchive, MAX_IMPORT_ENTRIES } from './archive';
import type { ImportInput, TakeAnswer } from './import.worker';
import { RenderStore } from './render-store';
import { liveSearchFromRow, LiveSearch, rowOf } from './search.model';
import { requireSucceeded } from './search-failure';
import { SearchLifecycle } from './search-lifecycle.service';
import { requireView } from './searchctrl.access';
import { SearchCtrlRepository } from './searchctrl.repository';
import { downloadStream } from './search-results';

const MiB = 1024 * 1024;
const IMPORT_RETRY_AFTER_S = 2;

@Injectable()
export class SearchTransferService implements OnModuleDestroy {
  /** Threads that unpack and check archives (IMPORT_CONCURRENCY, each with IMPORT_WORKER_HEAP_MB). */
  private readonly workers: TaskWorkers;
  private readonly gate: UserGate;

  constructor(
    private readonly life: SearchLifecycle,
    private readonly repo: SearchCtrlRepository,
    private readonly indexer: IndexerService,
  ) {
    const c = life.config;
    this.workers = new TaskWorkers({ entry: path.join(__dirname, 'import.worker'), size: c.importConcurrency, heapMb: c.importWorkerHeapMb, data: { kind: 'import' } });
    this.gate = new UserGate(c.importConcurrency, 1, c.importQueue, (scope) =>
      scope === 'user'
        ? refusal('IMPORTS_BUSY_FOR_USER', c.importQueue).retryAfter(IMPORT_RETRY_AFTER_S)
        : refusal('IMPORTS_BUSY', c.importConcurrency, c.importQueue).retryAfter(IMPORT_RETRY_AFTER_S),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers.close();
  }

  download(auth: AuthContext, id: string, format: string): StreamableFile {
    const s = requireView(auth, this.life.registry.get(id));
    const f = s.downloadFormats.find((x) => x === format);
    if (!f) {
      throw refusal('FORMAT_NOT_AVAILABLE', format.slice(0, 32), s.renderModule, s.downloadFormats.join(', '));
    }
    requireSucceeded(s);
    let body;
    if (f === 'archive') {
      if (!s.flags.finished || s.flags.moving) throw refusal('ARCHIVE_SEARCH_STILL_RUNNING');
      body = archiveStream(s);
    } else {
      body = downloadStream(s, f, () => this.indexer.tagNames());
    }
    return new StreamableFile(body, { type: DOWNLOAD_CONTENT_TYPES[f], disposition: `attachment; filename="search-${s.id}.${DOWNLOAD_EXTENSIONS[f]}"` });
  }

  /** 429 when an import of `uid` would be refused now (checked before its upload is read). */
  admitImport(uid: number): void {
    this.gate.check(uid);
  }

  /**
   * Re-creates an archive as a saved search owned by the importer. Admitted first (one import
   * per user at a time, IMPORT_CONCURRENCY in all, IMPORT_QUEUE waiting), then unpacked and
   * checked in an import worker; its bytes are counted against the owner's quotas as they are
   * written, so imports running side by side cannot pass a quota together.
   */
  async import(auth: AuthContext, file: string, opts: { gid?: number; batchName?: string; batchInfo?: string }): Promise<string> {
    const gids = opts.gid ? [opts.gid] : [];
    requireMayShareWith(auth, gids);
    return this.gate.run(auth.uid, () => this.importNow(auth, file, gids, opts));
  }

  private async importNow(auth: AuthContext, file: string, gids: number[], opts: { batchName?: string; batchInfo?: string }): Promise<string> {
    const quotas = this.life.registry.quotas;
    const account = quotas.open(auth.uid);
    // A saved search's place and some room, before anything is read (409/413).
    account.markSaved(1);
    const tmp = await fsp.mkdtemp(path.join(this.life.paths.tmp, 'import-'));
    let target: string | undefined;
    try {
      const config = this.life.config;
      const limit = config.renderStoreLimitBytes;
      const used = quotas.usage(auth.uid);
      const room = Math.min(config.savedSearchQuotaBytes - used.saved, config.searchStoreQuotaBytes - used.total);
      const input: ImportInput = {
        file,
        dir: tmp,
        limits: {
          maxUnpackedBytes: Math.min(limit, room),
          // Over the room the quotas leave: say so, not only that the archive is large.
          unpackedSetting:
            room < limit
              ? `what your quotas leave: your searches store ${formatBytes(used.saved)} of SAVED_SEARCH_QUOTA_BYTES (${formatBytes(config.savedSearchQuotaBytes)}) saved, ${formatBytes(used.total)} of SEARCH_STORE_QUOTA_BYTES (${formatBytes(config.searchStoreQuotaBytes)}) in all`
              : 'RENDER_STORE_LIMIT_BYTES',
          maxResultBytes: config.maxResultBytes,
          maxEntries: MAX_IMPORT_ENTRIES,
        },
      };
      const onAsk = (q: unknown): TakeAnswer => {
        const bytes = (q as { take: number }).take;
        if (account.take(bytes)) return null;
        const { message, code } = quotas.refusal(auth.uid, bytes, true) ?? refusal('SEARCH_RESULTS_QUOTA_EXCEEDED');
        return { message, code };
      };
      const a = await this.workers.run<ImportedArchive>('import', input, { onAsk }).catch((err: unknown) => {
        if (err instanceof TaskOutOfMemory) throw refusal('IMPORT_OUT_OF_MEMORY', err.heapMb * MiB);
        throw err;
      });
      const m = a.manifest;
      const id = this.life.registry.newId();
      target = path.join(this.life.paths.saved, id);
      await fsp.rename(tmp, target);
      const store = await RenderStore.open(target, limit, account);
      account.settle(store.storeSize + store.indexSize);
      const now = new Date();
      const s: LiveSearch = liveSearchFromRow(
        {
          id,
          uid: auth.uid,
          gids,
          global: false,
          userQuery: m.UserQuery,
          effectiveQuery: m.EffectiveQuery,
          start: new Date(m.StartRange),
          end: new Date(m.EndRange),
          started: new Date(m.Started),
          finished: new Date(m.Finished),
          renderModule: m.RenderModule,
          renderCmd: m.RenderCmd,
          downloadFormats: m.DownloadFormats,
          collapsingIndex: m.CollapsingIndex,
          queryTimeSpecified: m.QueryTimeSpecified,
          noHistory: false,
          backgrounded: false,
          name: m.Name,
          metadata: null,
          saveMetadata: m.Metadata,
          launchInfo: null,
          importInfo: { Imported: true, Time: now.toISOString(), BatchName: opts.batchName ?? '', BatchInfo: opts.batchInfo ?? '' },
          error: null,
          overLimit: m.OverLimit,
          storeSize: store.storeSize,
          indexSize: store.indexSize,
        },
        store,
        account,
      );
      store.overLimit = m.OverLimit;
      await this.repo.insert(rowOf(s));
      this.life.registry.add(s);
      return id;
    } catch (err) {
      account.release();
      await fsp.rm(tmp, { recursive: true, force: true });
      if (target) await fsp.rm(target, { recursive: true, force: true });
      throw err;
    }
  }
}
