import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DownloadFormat } from '../query';
import { ImportInfo } from './search.model';

/** Metadata of a saved search as persisted in `saved_search`. */
export interface SavedSearchRow {
  id: string;
  uid: number;
  gids: number[];
  global: boolean;
  userQuery: string;
  effectiveQuery: string;
  start: Date;
  end: Date;
  started: Date;
  finished: Date;
  renderModule: string;
  renderCmd: string;
  downloadFormats: DownloadFormat[];
  collapsingIndex: number;
  queryTimeSpecified: boolean;
  noHistory: boolean;
  backgrounded: boolean;
  name: string;
  metadata: unknown;
  saveMetadata: unknown;
  launchInfo: unknown;
  importInfo: ImportInfo | null;
  error: string | null;
  overLimit: boolean;
  storeSize: number;
  indexSize: number;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

@Injectable()
export class SearchCtrlRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async insert(r: SavedSearchRow): Promise<void> {
    await this.ds.query(
      `INSERT INTO saved_search (id, uid, gids, global, user_query, effective_query, start_range, end_range, started, finished,
         render_module, render_cmd, download_formats, collapsing_index, query_time_specified, no_history, backgrounded, name,
         metadata, save_metadata, launch_info, import_info, error, over_limit, store_size, index_size)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19::jsonb,$20::jsonb,$21::jsonb,$22::jsonb,$23,$24,$25,$26)`,
      [
        r.id,
        r.uid,
        r.gids,
        r.global,
        r.userQuery,
        r.effectiveQuery,
        r.start,
        r.end,
        r.started,
        r.finished,
        r.renderModule,
        r.renderCmd,
        r.downloadFormats,
        r.collapsingIndex,
        r.queryTimeSpecified,
        r.noHistory,
        r.backgrounded,
        r.name,
        json(r.metadata),
        json(r.saveMetadata),
        json(r.launchInfo),
        json(r.importInfo),
        r.error,
        r.overLimit,
        r.storeSize,
        r.indexSize,
      ],
    );
  }

  async listAll(): Promise<SavedSearchRow[]> {
    const rows: Array<Record<string, unknown>> = await this.ds.query(`SELECT * FROM saved_search ORDER BY id`);
    return rows.map((r) => ({
      id: String(r.id),
      uid: r.uid as number,
      gids: (r.gids as number[]) ?? [],
      global: r.global as boolean,
      userQuery: r.user_query as string,
      effectiveQuery: r.effective_query as string,
      start: r.start_range as Date,
      end: r.end_range as Date,
      started: r.started as Date,
      finished: r.finished as Date,
      renderModule: r.render_module as string,
      renderCmd: r.render_cmd as string,
      downloadFormats: (r.download_formats as DownloadFormat[]) ?? [],
      collapsingIndex: r.collapsing_index as number,
      queryTimeSpecified: r.query_time_specified as boolean,
      noHistory: r.no_history as boolean,
      backgrounded: r.backgrounded as boolean,
      name: r.name as string,
      metadata: r.metadata,
      saveMetadata: r.save_metadata,
      launchInfo: r.launch_info,
      importInfo: (r.import_info as ImportInfo | null) ?? null,
      error: (r.error as string | null) ?? null,
      overLimit: r.over_limit as boolean,
      storeSize: Number(r.store_size),
      indexSize: Number(r.index_size),
    }));
  }

  async updateSharing(id: string, gids: number[], global: boolean): Promise<void> {
    await this.ds.query(`UPDATE saved_search SET gids = $2, global = $3 WHERE id = $1`, [id, gids, global]);
  }

  async updateSaveMetadata(id: string, saveMetadata: unknown): Promise<void> {
    await this.ds.query(`UPDATE saved_search SET save_metadata = $2::jsonb WHERE id = $1`, [id, json(saveMetadata)]);
  }

  async delete(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM saved_search WHERE id = $1`, [id]);
  }
}
