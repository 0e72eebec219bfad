import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A dashboard row. `id` is a bigint (read back as a number: IDs stay at or below 2^53-1). */
@Entity({ name: 'dashboard' })
export class DashboardEntity {
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'dashboard_pkey', transformer: { to: (v: number) => v, from: (v: string | null) => (v === null ? v : Number(v)) } })
  id: number;

  @Column({ type: 'uuid' })
  guid: string;

  @Column({ type: 'integer' })
  uid: number;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'integer', array: true, nullable: true })
  gids: number[] | null;

  @Column({ type: 'boolean', default: false })
  global: boolean;

  @Column({ type: 'text', array: true, nullable: true })
  labels: string[] | null;

  /** Any JSON value, stored as sent. */
  @Column({ type: 'json' })
  data: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
