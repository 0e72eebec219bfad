import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, SelectQueryBuilder } from 'typeorm';
import { NotificationEntity } from './notification.entity';

export interface ListFilter {
  afterTime?: Date;
  afterId?: string;
}

@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get repo() {
    return this.ds.getRepository(NotificationEntity);
  }

  private live(filter: ListFilter): SelectQueryBuilder<NotificationEntity> {
    const qb = this.repo.createQueryBuilder('n').where('n.expires > now()').orderBy('n.id', 'ASC').limit(10_000);
    if (filter.afterTime) qb.andWhere('n.sent > :after', { after: filter.afterTime });
    if (filter.afterId) qb.andWhere('n.id > :afterId', { afterId: filter.afterId });
    return qb;
  }

  /** What a user sees: their own, their groups', and broadcasts; not expired, not ignored. */
  listVisible(uid: number, gids: number[], filter: ListFilter): Promise<NotificationEntity[]> {
    return this.live(filter)
      .andWhere(
        new Brackets((w) => {
          w.where('n.broadcast').orWhere('n.uid = :uid', { uid });
          if (gids.length) w.orWhere('n.gid IN (:...gids)', { gids });
        }),
      )
      .andWhere('(n.ignore_until IS NULL OR n.ignore_until <= now())')
      .getMany();
  }

  listAll(filter: ListFilter): Promise<NotificationEntity[]> {
    return this.live(filter).getMany();
  }

  findById(id: string): Promise<NotificationEntity | null> {
    return this.repo.createQueryBuilder('n').where('n.id = :id AND n.expires > now()', { id }).getOne();
  }

  /** The live notification this sender already sent to the same target with the same Type. */
  findSameType(row: Pick<NotificationEntity, 'sender' | 'uid' | 'gid' | 'broadcast' | 'type'>): Promise<NotificationEntity | null> {
    const qb = this.repo.createQueryBuilder('n').where('n.sender = :sender AND n.broadcast = :broadcast AND n.type = :type AND n.expires > now()', row);
    qb.andWhere(row.uid === null ? 'n.uid IS NULL' : 'n.uid = :uid', { uid: row.uid });
    qb.andWhere(row.gid === null ? 'n.gid IS NULL' : 'n.gid = :gid', { gid: row.gid });
    return qb.getOne();
  }

  async insert(row: Omit<NotificationEntity, 'id'>): Promise<string> {
    const res = await this.repo.insert(row);
    return String((res.identifiers[0] as { id: string }).id);
  }

  async update(id: string, patch: Partial<NotificationEntity>): Promise<void> {
    await this.repo.update({ id }, patch);
  }

  async delete(id: string): Promise<void> {
    await this.repo.delete({ id });
  }

  async deleteExpired(): Promise<number> {
    const res = await this.repo.createQueryBuilder().delete().where('expires <= now()').execute();
    return res.affected ?? 0;
  }
}
