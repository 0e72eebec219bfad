import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';
import { PivotContents } from './pivot-contents';

/** An actionable (the product's pivot): triggers over values in results, and the actions they offer. */
@Entity({ name: 'pivot' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'pivot_uid_fkey', onDelete: 'CASCADE' })
@Index('pivot_uid_idx', ['uid'])
@Index('pivot_gids_idx', ['gids'], { type: 'gin' })
export class PivotEntity extends SharedObjectEntity {
  /** The product's ThingUUID: this instance. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pivot_pkey' })
  thingUuid: string;

  /** Shared by every installation of the same content (kits); several owners may hold one. */
  @Column({ type: 'uuid' })
  @Index('pivot_guid_idx')
  guid: string;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** Normalized by pivot-contents.ts; json keeps the order it was written in. */
  @Column({ type: 'json' })
  contents: PivotContents;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
