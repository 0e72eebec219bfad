import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TemplateEntity } from './template.entity';
import { PatchColumns, updateColumns } from '../database/partial-update';
import { whereReachable } from '../sharing/reachable';

export type NewTemplate = Pick<TemplateEntity, 'thingUuid' | 'guid' | 'uid' | 'gids' | 'global' | 'labels' | 'name' | 'description' | 'query' | 'variables'>;
export type TemplatePatch = Partial<Omit<NewTemplate, 'thingUuid'>>;

const COLUMNS: PatchColumns<TemplatePatch> = {
  guid: 'guid',
  uid: 'uid',
  gids: 'gids',
  global: 'global',
  labels: 'labels',
  name: 'name',
  description: 'description',
  query: 'query',
  variables: { column: 'variables', json: 'jsonb' },
};

const ORDER = { createdAt: 'ASC', thingUuid: 'ASC' } as const;

/** The only file with queries on `template`. */
@Injectable()
export class TemplatesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(TemplateEntity);
  }

  async insert(t: NewTemplate): Promise<void> {
    await this.ds.query(
      `INSERT INTO template (thing_uuid, guid, uid, gids, global, labels, name, description, query, variables)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)`,
      [t.thingUuid, t.guid, t.uid, t.gids, t.global, t.labels, t.name, t.description, t.query, JSON.stringify(t.variables)],
    );
  }

  findByThingUuid(thingUuid: string): Promise<TemplateEntity | null> {
    return this.repo.findOneBy({ thingUuid });
  }

  findByGuid(guid: string): Promise<TemplateEntity[]> {
    return this.repo.find({ where: { guid }, order: ORDER });
  }

  /** The owner of the oldest template holding this GUID. */
  async firstHolderOfGuid(guid: string): Promise<number | undefined> {
    const rows: Array<{ uid: number }> = await this.ds.query('SELECT uid FROM template WHERE guid = $1 ORDER BY created_at, thing_uuid LIMIT 1', [guid]);
    return rows[0]?.uid;
  }

  listAll(): Promise<TemplateEntity[]> {
    return this.repo.find({ order: ORDER });
  }

  /** What the caller reaches without admin rights: own, shared with one of `gids`, global. */
  listReachable(uid: number, gids: readonly number[]): Promise<TemplateEntity[]> {
    return whereReachable(this.repo.createQueryBuilder('t'), 't', uid, gids).orderBy('t.created_at', 'ASC').addOrderBy('t.thing_uuid', 'ASC').getMany();
  }

  async update(thingUuid: string, patch: TemplatePatch): Promise<void> {
    await updateColumns(this.ds, 'template', 'thing_uuid', thingUuid, COLUMNS, patch);
  }

  async delete(thingUuid: string): Promise<void> {
    await this.repo.delete({ thingUuid });
  }
}
