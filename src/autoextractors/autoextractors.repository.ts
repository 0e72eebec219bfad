import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AutoextractorEntity } from './autoextractor.entity';
import { PatchColumns, updateColumns } from '../database/partial-update';
import { whereReachable } from '../sharing/reachable';

export type NewAutoextractor = Pick<AutoextractorEntity, 'uuid' | 'uid' | 'gids' | 'global' | 'labels' | 'tags' | 'name' | 'description' | 'module' | 'params' | 'args'>;
export type AutoextractorPatch = Partial<Omit<NewAutoextractor, 'uuid'>>;

const COLUMNS: PatchColumns<AutoextractorPatch> = {
  uid: 'uid',
  gids: 'gids',
  global: 'global',
  labels: 'labels',
  tags: 'tags',
  name: 'name',
  description: 'description',
  module: 'module',
  params: 'params',
  args: 'args',
};

/** A write refused by the one-definition-per-tag-per-owner rule, or by the owner's count. */
export type WriteConflict = { tagTaken: string } | { tooMany: true };

/** A write of several definitions at once (an upload): inserts and updates, all or none. */
export type BatchWrite = { insert: NewAutoextractor } | { update: string; patch: AutoextractorPatch };

class Conflict extends Error {
  constructor(readonly conflict: WriteConflict) {
    super('autoextractor write conflict');
  }
}

/** The only file with queries on `autoextractor`. */
@Injectable()
export class AutoextractorsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(AutoextractorEntity);
  }

  findByUuid(uuid: string): Promise<AutoextractorEntity | null> {
    return this.repo.findOneBy({ uuid });
  }

  findByUuids(uuids: string[]): Promise<AutoextractorEntity[]> {
    return this.repo.createQueryBuilder('a').where('a.uuid = ANY(:uuids::uuid[])', { uuids }).orderBy('a.created_at', 'ASC').addOrderBy('a.uuid', 'ASC').getMany();
  }

  listAll(): Promise<AutoextractorEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC', uuid: 'ASC' } });
  }

  /** What the caller reaches without admin rights: own, shared with one of `gids`, global. */
  listReachable(uid: number, gids: readonly number[]): Promise<AutoextractorEntity[]> {
    return whereReachable(this.repo.createQueryBuilder('a'), 'a', uid, gids).orderBy('a.created_at', 'ASC').addOrderBy('a.uuid', 'ASC').getMany();
  }

  /** The owner's definitions that extract one of `tags`, besides `except`. */
  ownedWithTags(uid: number, tags: string[], except?: string): Promise<AutoextractorEntity[]> {
    const q = this.repo.createQueryBuilder('a').where('a.uid = :uid AND a.tags && :tags::text[]', { uid, tags });
    if (except) q.andWhere('a.uuid <> :except', { except });
    return q.getMany();
  }

  /**
   * Inserts and updates under the lock of each owner concerned, checking that no owner then has
   * two definitions for one tag nor more than `maxPerOwner`: the first conflict and nothing
   * written, or undefined when all were written.
   */
  async write(batch: BatchWrite[], maxPerOwner: number): Promise<WriteConflict | undefined> {
    try {
      await this.writeAll(batch, maxPerOwner);
      return undefined;
    } catch (err) {
      if (err instanceof Conflict) return err.conflict;
      throw err;
    }
  }

  private writeAll(batch: BatchWrite[], maxPerOwner: number): Promise<void> {
    return this.ds.transaction(async (m) => {
      const owners = new Set<number>();
      for (const w of batch) {
        if ('insert' in w) owners.add(w.insert.uid);
        else {
          const cur = await m.findOneBy(AutoextractorEntity, { uuid: w.update });
          if (cur) owners.add(cur.uid);
          if (w.patch.uid !== undefined) owners.add(w.patch.uid);
        }
      }
      for (const uid of [...owners].sort((a, b) => a - b)) await m.query(`SELECT pg_advisory_xact_lock(hashtext('autoextractor'), $1)`, [uid]);
      for (const w of batch) {
        if ('insert' in w) await this.insertOne(m, w.insert);
        else await this.updateOne(m, w.update, w.patch);
      }
      const conflict = await this.conflicts(m, [...owners], maxPerOwner);
      // Thrown: the transaction rolls back, and write() answers why.
      if (conflict) throw new Conflict(conflict);
    });
  }

  private async insertOne(m: EntityManager, a: NewAutoextractor): Promise<void> {
    await m.query(
      `INSERT INTO autoextractor (uuid, uid, gids, global, labels, tags, name, description, module, params, args) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [a.uuid, a.uid, a.gids, a.global, a.labels, a.tags, a.name, a.description, a.module, a.params, a.args],
    );
  }

  private async updateOne(m: EntityManager, uuid: string, patch: AutoextractorPatch): Promise<void> {
    await updateColumns(m, 'autoextractor', 'uuid', uuid, COLUMNS, patch);
  }

  private async conflicts(m: EntityManager, owners: number[], maxPerOwner: number): Promise<WriteConflict | undefined> {
    const taken: Array<{ tag: string }> = await m.query(
      `SELECT t.tag FROM autoextractor a CROSS JOIN LATERAL unnest(a.tags) AS t(tag) WHERE a.uid = ANY($1::integer[])
       GROUP BY a.uid, t.tag HAVING count(*) > 1 ORDER BY t.tag LIMIT 1`,
      [owners],
    );
    if (taken.length) return { tagTaken: taken[0].tag };
    const counts: Array<{ n: string }> = await m.query(`SELECT count(*) AS n FROM autoextractor WHERE uid = ANY($1::integer[]) GROUP BY uid HAVING count(*) > $2 LIMIT 1`, [
      owners,
      maxPerOwner,
    ]);
    return counts.length ? { tooMany: true } : undefined;
  }

  async delete(uuid: string): Promise<void> {
    await this.repo.delete({ uuid });
  }
}
