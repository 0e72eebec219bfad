/** Downloads (json, csv, text, archive) and archive import (product-notes §2.7 Downloads). */
import { Injectable, Logger, StreamableFile } from '@nestjs/common';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { AuthContext } from '../auth/auth.types';
import { requireMayShareWith } from '../common/access/shareable';
import { AppError, badRequest, conflict, payloadTooLarge } from '../common/errors/app-error';
import { IndexerService } from '../indexer/indexer.service';
import { DOWNLOAD_CONTENT_TYPES, DOWNLOAD_EXTENSIONS } from '../query';
import { archiveStream, importArchive } from './archive';
import { RenderStore } from './render-store';
import { requireSavedQuota } from './search-registry';
import { liveSearchFromRow, LiveSearch, rowOf } from './search.model';
import { requireSucceeded } from './search-failure';
import { SearchLifecycle } from './search-lifecycle.service';
import { requireView } from './searchctrl.access';
import { SearchCtrlRepository } from './searchctrl.repository';
import { downloadStream } from './search-results';

/** Upper bound on entries in an imported archive. */
export const MAX_IMPORT_ENTRIES = 10_000_000;

@Injectable()
export class SearchTransferService {
  private readonly logger = new Logger(SearchTransferService.name);

  constructor(
    private readonly life: SearchLifecycle,
    private readonly repo: SearchCtrlRepository,
    private readonly indexer: IndexerService,
  ) {}

  download(auth: AuthContext, id: string, format: string): StreamableFile {
    const s = requireView(auth, this.life.registry.get(id));
    const f = s.downloadFormats.find((x) => x === format);
    if (!f) {
      throw badRequest(`Format "${format.slice(0, 32)}" is not available for the ${s.renderModule} renderer (available: ${s.downloadFormats.join(', ')})`);
    }
    requireSucceeded(s);
    let body;
    if (f === 'archive') {
      if (!s.flags.finished || s.flags.moving) throw conflict('The search is still running; download the archive once it has finished');
      body = archiveStream(s);
    } else {
      body = downloadStream(s, f, () => this.indexer.tagNames());
    }
    return new StreamableFile(body, { type: DOWNLOAD_CONTENT_TYPES[f], disposition: `attachment; filename="search-${s.id}.${DOWNLOAD_EXTENSIONS[f]}"` });
  }

  /** Re-creates an archive as a saved search owned by the importer. */
  async import(auth: AuthContext, file: string, opts: { gid?: number; batchName?: string; batchInfo?: string }): Promise<string> {
    const gids = opts.gid ? [opts.gid] : [];
    requireMayShareWith(auth, gids);
    const tmp = await fsp.mkdtemp(path.join(this.life.paths.tmp, 'import-'));
    let target: string | undefined;
    try {
      const limit = this.life.config.renderStoreLimitBytes;
      const quota = this.life.config.savedSearchQuotaBytes;
      requireSavedQuota(this.life.registry, auth.uid, 1, quota); // no room at all: 413 before reading the archive
      const used = this.life.registry.savedBytesOf(auth.uid);
      const a = await importArchive(file, tmp, {
        maxUnpackedBytes: Math.min(limit, quota - used),
        maxResultBytes: this.life.config.maxResultBytes,
        maxEntries: MAX_IMPORT_ENTRIES,
      }).catch((err: unknown) => {
        // Over the room the quota leaves: say so, not only that the archive is large.
        if (err instanceof AppError && err.status === 413 && quota - used < limit) {
          throw payloadTooLarge(`${err.message}; your saved searches use ${used} of ${quota} bytes (SAVED_SEARCH_QUOTA_BYTES)`);
        }
        throw err;
      });
      const m = a.manifest;
      const id = this.life.registry.newId();
      target = path.join(this.life.paths.saved, id);
      await fsp.rename(tmp, target);
      const store = await RenderStore.open(target, limit);
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
      );
      store.overLimit = m.OverLimit;
      await this.repo.insert(rowOf(s));
      this.life.registry.add(s);
      return id;
    } catch (err) {
      await fsp.rm(tmp, { recursive: true, force: true });
      if (target) await fsp.rm(target, { recursive: true, force: true });
      throw err;
    }
  }
}
