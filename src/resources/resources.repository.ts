import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ResourceEntity } from './resource.entity';
import { whereReachable } from '../sharing/reachable';

export type NewResource = Pick<ResourceEntity, 'guid' | 'uid' | 'gids' | 'global' | 'name' | 'description'> &
  Partial<Pick<ResourceEntity, 'contentId' | 'size' | 'hash' | 'contentType' | 'labels' | 'domain'>>;
export type ResourceMetaPatch = Partial<Pick<ResourceEntity, 'gids' | 'global' | 'name' | 'description'>>;
export interface NewContents {
  contentId: string;
  size: number;
  hash: string;
  contentType: string;
}

@Injectable()
export class ResourcesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(tx?: EntityManager) {
    return (tx ?? this.ds.manager).getRepository(ResourceEntity);
  }

  findByGuid(guid: string): Promise<ResourceEntity | null> {
    return this.repo().findOneBy({ guid });
  }

  listAll(): Promise<ResourceEntity[]> {
    return this.repo().createQueryBuilder('r').orderBy('lower(r.name)', 'ASC').addOrderBy('r.guid', 'ASC').getMany();
  }

  /** Owned by `uid`, shared with one of `gids`, or global. */
  listVisible(uid: number, gids: number[]): Promise<ResourceEntity[]> {
    return whereReachable(this.repo().createQueryBuilder('r'), 'r', uid, gids).orderBy('lower(r.name)', 'ASC').addOrderBy('r.guid', 'ASC').getMany();
  }

  /** The resource named `name` a search reads by name: the caller's own first, then shared or global; newest first. */
  findVisibleByName(uid: number, gids: number[], name: string): Promise<ResourceEntity | null> {
    return whereReachable(this.repo().createQueryBuilder('r').where('r.name = :name', { name }), 'r', uid, gids)
      .orderBy('CASE WHEN r.uid = :reachUid THEN 0 ELSE 1 END', 'ASC')
      .addOrderBy('r.lastModified', 'DESC')
      .addOrderBy('r.guid', 'ASC')
      .getOne();
  }

  /** The caller's own resource named `name` (the newest when several), for `table -save`. */
  findOwnedByName(uid: number, name: string): Promise<ResourceEntity | null> {
    return this.repo().findOne({ where: { uid, name }, order: { lastModified: 'DESC', guid: 'ASC' } });
  }

  async insert(row: NewResource): Promise<ResourceEntity> {
    await this.repo().insert(row);
    return (await this.findByGuid(row.guid))!;
  }

  /** Updates metadata (and LastModified); null when the resource is gone. */
  async updateMeta(guid: string, patch: ResourceMetaPatch): Promise<ResourceEntity | null> {
    await this.repo().update({ guid }, { ...patch, lastModified: new Date() });
    return this.findByGuid(guid);
  }

  /**
   * Points the resource at new contents and bumps its version, in one transaction, so metadata
   * always describes the blob it names. Returns the updated row and the previous blob (to remove
   * after commit), or null when the resource no longer exists.
   */
  replaceContents(guid: string, c: NewContents): Promise<{ row: ResourceEntity; previous: string | null } | null> {
    return this.ds.transaction(async (tx) => {
      const cur = await this.repo(tx).findOne({ where: { guid }, lock: { mode: 'pessimistic_write' } });
      if (!cur) return null;
      await this.repo(tx).update(
        { guid },
        { contentId: c.contentId, size: c.size, hash: c.hash, contentType: c.contentType, versionNumber: cur.versionNumber + 1, lastModified: new Date() },
      );
      return { row: (await this.repo(tx).findOneBy({ guid }))!, previous: cur.contentId };
    });
  }

  /** Deletes the row; returns its blob (to remove after commit), or undefined when nothing was deleted. */
  async delete(guid: string): Promise<{ contentId: string | null } | undefined> {
    const res = await this.repo().createQueryBuilder().delete().where('guid = :guid', { guid }).returning('content_id').execute();
    const rows = res.raw as Array<{ content_id: string | null }>;
    return rows.length ? { contentId: rows[0].content_id } : undefined;
  }

  async contentIds(): Promise<Set<string>> {
    const rows: Array<{ content_id: string }> = await this.ds.query(`SELECT content_id FROM resource WHERE content_id IS NOT NULL`);
    return new Set(rows.map((r) => r.content_id));
  }
}
