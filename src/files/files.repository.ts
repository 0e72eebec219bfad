import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { UserFileEntity } from './user-file.entity';
import { orderByReach, whereReachable } from '../sharing/reachable';

export type NewUserFile = Omit<UserFileEntity, 'updated' | 'createdAt'>;
export type UserFileMetaPatch = Partial<Pick<UserFileEntity, 'uid' | 'gids' | 'global' | 'name' | 'description' | 'labels'>>;
export interface NewFileContents {
  contentId: string;
  size: number;
  hash: string;
  contentType: string;
}

@Injectable()
export class FilesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.ds.manager).getRepository(UserFileEntity);
  }

  findByThing(thingUuid: string): Promise<UserFileEntity | null> {
    return this.repo().findOneBy({ thingUuid });
  }

  /**
   * The file with this GUID the caller reaches, by the contract's winner order: owned, then
   * shared with one of the caller's groups, then global; ties go to the most recently updated.
   */
  findVisibleByGuid(guid: string, uid: number, gids: number[]): Promise<UserFileEntity | null> {
    return orderByReach(whereReachable(this.repo().createQueryBuilder('f').where('f.guid = :guid', { guid }), 'f', uid, gids), 'f')
      .addOrderBy('f.updated', 'DESC')
      .addOrderBy('f.thing_uuid', 'ASC')
      .getOne();
  }

  /** Admin mode fallback: any file with this GUID, the caller's own first, then the most recently updated. */
  findAnyByGuid(guid: string, uid: number): Promise<UserFileEntity | null> {
    return this.repo()
      .createQueryBuilder('f')
      .where('f.guid = :guid', { guid })
      .orderBy('CASE WHEN f.uid = :uid THEN 0 ELSE 1 END', 'ASC')
      .setParameter('uid', uid)
      .addOrderBy('f.updated', 'DESC')
      .addOrderBy('f.thing_uuid', 'ASC')
      .getOne();
  }

  /** The owner of the oldest file holding this GUID. */
  async firstHolderOfGuid(guid: string): Promise<number | undefined> {
    const rows: Array<{ uid: number }> = await this.ds.query('SELECT uid FROM user_file WHERE guid = $1 ORDER BY created_at, thing_uuid LIMIT 1', [guid]);
    return rows[0]?.uid;
  }

  listAll(): Promise<UserFileEntity[]> {
    return this.repo().createQueryBuilder('f').orderBy('lower(f.name)', 'ASC').addOrderBy('f.thing_uuid', 'ASC').getMany();
  }

  listVisible(uid: number, gids: number[]): Promise<UserFileEntity[]> {
    return whereReachable(this.repo().createQueryBuilder('f'), 'f', uid, gids).orderBy('lower(f.name)', 'ASC').addOrderBy('f.thing_uuid', 'ASC').getMany();
  }

  async insert(row: NewUserFile): Promise<UserFileEntity> {
    await this.repo().insert(row);
    return (await this.findByThing(row.thingUuid))!;
  }

  async updateMeta(thingUuid: string, patch: UserFileMetaPatch): Promise<UserFileEntity | null> {
    await this.repo().update({ thingUuid }, { ...patch, updated: new Date() });
    return this.findByThing(thingUuid);
  }

  /** Switches the file to new contents in one transaction; returns the previous blob, or null when the file is gone. */
  replaceContents(thingUuid: string, c: NewFileContents): Promise<{ row: UserFileEntity; previous: string } | null> {
    return this.ds.transaction(async (tx) => {
      const cur = await this.repo(tx).findOne({ where: { thingUuid }, lock: { mode: 'pessimistic_write' } });
      if (!cur) return null;
      await this.repo(tx).update({ thingUuid }, { contentId: c.contentId, size: c.size, hash: c.hash, contentType: c.contentType, updated: new Date() });
      return { row: (await this.repo(tx).findOneBy({ thingUuid }))!, previous: cur.contentId };
    });
  }

  async delete(thingUuid: string): Promise<{ contentId: string } | undefined> {
    const res = await this.repo().createQueryBuilder().delete().where('thing_uuid = :thingUuid', { thingUuid }).returning('content_id').execute();
    const rows = res.raw as Array<{ content_id: string }>;
    return rows.length ? { contentId: rows[0].content_id } : undefined;
  }

  async contentIds(): Promise<Set<string>> {
    const rows: Array<{ content_id: string }> = await this.ds.query(`SELECT content_id FROM user_file`);
    return new Set(rows.map((r) => r.content_id));
  }
}
