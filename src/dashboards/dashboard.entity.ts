import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { NullableListsSharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';

/** A dashboard row. `id` is a bigint (read back as a number: IDs stay at or below 2^53-1). */
@Entity({ name: 'dashboard' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'dashboard_uid_fkey', onDelete: 'CASCADE' })
@Index('dashboard_uid_idx', ['uid'])
@Index('dashboard_gids_idx', ['gids'], { type: 'gin' })
@Check('dashboard_id_check', 'id BETWEEN 1 AND 9007199254740991')
export class DashboardEntity extends NullableListsSharedObjectEntity {
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'dashboard_pkey', transformer: { to: (v: number) => v, from: (v: string | null) => (v === null ? v : Number(v)) } })
  id: number;

  @Column({ type: 'uuid' })
  @Index('dashboard_guid_idx')
  guid: string;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** Any JSON value, stored as sent. */
  @Column({ type: 'json' })
  data: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
