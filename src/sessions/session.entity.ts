import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'session' })
export class SessionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'session_pkey' })
  id: string;

  @Column({ type: 'integer' })
  uid: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  origin: string;

  @Column({ type: 'boolean', default: false })
  temp: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastHit: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
