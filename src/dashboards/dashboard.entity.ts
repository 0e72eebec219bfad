import { Column, Entity, PrimaryColumn } from 'typeorm';
import { NullableListsSharedObjectEntity } from '../sharing/shared-object.entity';

/** A dashboard row. `id` is a bigint (read back as a number: IDs stay at or below 2^53-1). */
@Entity({ name: 'dashboard' })
export class DashboardEntity extends NullableListsSharedObjectEntity {
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'dashboard_pkey', transformer: { to: (v: number) => v, from: (v: string | null) => (v === null ? v : Number(v)) } })
  id: number;

  @Column({ type: 'uuid' })
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
