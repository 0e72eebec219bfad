import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

@Entity({ name: 'session' })
export class SessionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'session_pkey' })
  id: string;

  @Column({ type: 'integer' })
  @ForeignKey(() => UserEntity, { name: 'session_uid_fkey', onDelete: 'CASCADE' })
  @Index('session_uid_idx')
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
