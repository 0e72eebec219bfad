import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LibraryEntryEntity } from './library-entry.entity';
import { PatchColumns, updateColumns } from '../database/partial-update';

export type NewLibraryEntry = Pick<LibraryEntryEntity, 'thingUuid' | 'guid' | 'uid' | 'gids' | 'global' | 'name' | 'description' | 'query' | 'labels' | 'metadata'>;
export type LibraryEntryPatch = Partial<Omit<NewLibraryEntry, 'thingUuid'>>;

const COLUMNS: PatchColumns<LibraryEntryPatch> = {
  guid: 'guid',
  uid: 'uid',
  gids: 'gids',
  global: 'global',
  name: 'name',
  description: 'description',
  query: 'query',
  labels: 'labels',
  metadata: { column: 'metadata', json: 'json' },
};

/** JSON for a `json` column; `null` (no metadata) stays SQL NULL. */
const jsonParam = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

/** The only file with queries on `library_entry`. */
@Injectable()
export class LibraryRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(LibraryEntryEntity);
  }

  async insert(e: NewLibraryEntry): Promise<void> {
    await this.ds.query(
      `INSERT INTO library_entry (thing_uuid, guid, uid, gids, global, name, description, query, labels, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::json)`,
      [e.thingUuid, e.guid, e.uid, e.gids, e.global, e.name, e.description, e.query, e.labels, jsonParam(e.metadata)],
    );
  }

  findByThingUuid(thingUuid: string): Promise<LibraryEntryEntity | null> {
    return this.repo.findOneBy({ thingUuid });
  }

  findByGuid(guid: string): Promise<LibraryEntryEntity[]> {
    return this.repo.find({ where: { guid }, order: { createdAt: 'ASC', thingUuid: 'ASC' } });
  }

  /** The owner of the oldest entry holding this GUID. */
  async firstHolderOfGuid(guid: string): Promise<number | undefined> {
    const rows: Array<{ uid: number }> = await this.ds.query('SELECT uid FROM library_entry WHERE guid = $1 ORDER BY created_at, thing_uuid LIMIT 1', [guid]);
    return rows[0]?.uid;
  }

  listOwnedBy(uid: number): Promise<LibraryEntryEntity[]> {
    return this.repo.find({ where: { uid }, order: { createdAt: 'ASC', thingUuid: 'ASC' } });
  }

  listAll(): Promise<LibraryEntryEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC', thingUuid: 'ASC' } });
  }

  async update(thingUuid: string, patch: LibraryEntryPatch): Promise<void> {
    await updateColumns(this.ds, 'library_entry', 'thing_uuid', thingUuid, COLUMNS, patch);
  }

  async delete(thingUuid: string): Promise<void> {
    await this.repo.delete({ thingUuid });
  }
}
