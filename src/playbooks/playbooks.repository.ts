import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { PlaybookEntity } from './playbook.entity';
import { isUniqueViolation, PatchColumns, updateColumns } from '../database/partial-update';
import { orderByReach, whereReachable } from '../sharing/reachable';

export type NewPlaybook = Pick<
  PlaybookEntity,
  'uuid' | 'guid' | 'uid' | 'gids' | 'global' | 'labels' | 'name' | 'description' | 'body' | 'metadata' | 'authorName' | 'authorEmail' | 'authorCompany' | 'authorUrl'
>;
export type PlaybookPatch = Partial<Omit<NewPlaybook, 'uuid'>>;

const COLUMNS: PatchColumns<PlaybookPatch> = {
  guid: 'guid',
  uid: 'uid',
  gids: 'gids',
  global: 'global',
  labels: 'labels',
  name: 'name',
  description: 'description',
  body: 'body',
  metadata: 'metadata',
  authorName: 'author_name',
  authorEmail: 'author_email',
  authorCompany: 'author_company',
  authorUrl: 'author_url',
};

/** Every column but the body: listings answer without it (bodies may be 1 MiB each). */
const LISTED: Array<keyof PlaybookEntity> = [
  'uuid',
  'guid',
  'uid',
  'gids',
  'global',
  'labels',
  'createdAt',
  'name',
  'description',
  'metadata',
  'authorName',
  'authorEmail',
  'authorCompany',
  'authorUrl',
  'updatedAt',
];

/** The only file with queries on `playbook`. */
@Injectable()
export class PlaybooksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(PlaybookEntity);
  }

  private listing(): SelectQueryBuilder<PlaybookEntity> {
    return this.repo
      .createQueryBuilder('p')
      .select(LISTED.map((c) => `p.${c}`))
      .orderBy('lower(p.name)', 'ASC')
      .addOrderBy('p.uuid', 'ASC');
  }

  /** false when the owner already has a playbook with this GUID. */
  async insert(p: NewPlaybook): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `INSERT INTO playbook (uuid, guid, uid, gids, global, labels, name, description, body, metadata, author_name, author_email, author_company, author_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       ON CONFLICT (uid, guid) DO NOTHING RETURNING uuid`,
      [p.uuid, p.guid, p.uid, p.gids, p.global, p.labels, p.name, p.description, p.body, p.metadata, p.authorName, p.authorEmail, p.authorCompany, p.authorUrl],
    );
    return rows.length === 1;
  }

  findByUuid(uuid: string): Promise<PlaybookEntity | null> {
    return this.repo.findOneBy({ uuid });
  }

  /** The playbook with this GUID the caller reaches: owned, then shared with one of `gids`, then global; the oldest among equals. */
  findVisibleByGuid(guid: string, uid: number, gids: readonly number[]): Promise<PlaybookEntity | null> {
    return orderByReach(whereReachable(this.repo.createQueryBuilder('p').where('p.guid = :guid', { guid }), 'p', uid, gids), 'p')
      .addOrderBy('p.created_at', 'ASC')
      .addOrderBy('p.uuid', 'ASC')
      .getOne();
  }

  /** Admins: the oldest playbook with this GUID, whoever owns it. */
  findAnyByGuid(guid: string): Promise<PlaybookEntity | null> {
    return this.repo.createQueryBuilder('p').where('p.guid = :guid', { guid }).orderBy('p.created_at', 'ASC').addOrderBy('p.uuid', 'ASC').getOne();
  }

  /** The owner of the oldest playbook holding this GUID. */
  async firstHolderOfGuid(guid: string): Promise<number | undefined> {
    const rows: Array<{ uid: number }> = await this.ds.query('SELECT uid FROM playbook WHERE guid = $1 ORDER BY created_at, uuid LIMIT 1', [guid]);
    return rows[0]?.uid;
  }

  listAll(): Promise<PlaybookEntity[]> {
    return this.listing().getMany();
  }

  /** What the caller reaches without admin rights: own, shared with one of `gids`, global. */
  listReachable(uid: number, gids: readonly number[]): Promise<PlaybookEntity[]> {
    return whereReachable(this.listing(), 'p', uid, gids).getMany();
  }

  /** false when the owner already has another playbook with the new GUID. */
  async update(uuid: string, patch: PlaybookPatch): Promise<boolean> {
    try {
      await updateColumns(this.ds, 'playbook', 'uuid', uuid, COLUMNS, patch);
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async delete(uuid: string): Promise<void> {
    await this.repo.delete({ uuid });
  }
}
