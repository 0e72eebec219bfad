import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { GroupEntity } from '../groups/group.entity';
import { UserEntity } from '../users/user.entity';

@Entity({ name: 'notification' })
export class NotificationEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT', primaryKeyConstraintName: 'notification_pkey' })
  id: string;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => UserEntity, { name: 'notification_uid_fkey', onDelete: 'CASCADE' })
  @Index('notification_uid_idx')
  uid: number | null;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => GroupEntity, { name: 'notification_gid_fkey', onDelete: 'CASCADE' })
  @Index('notification_gid_idx')
  gid: number | null;

  @Column({ type: 'integer', default: 0 })
  sender: number;

  @Column({ type: 'bigint', default: 0 })
  type: string;

  @Column({ type: 'boolean', default: false })
  broadcast: boolean;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  sent: Date;

  @Column({ type: 'timestamptz' })
  @Index('notification_expires_idx')
  expires: Date;

  @Column({ type: 'timestamptz', nullable: true })
  ignoreUntil: Date | null;

  @Column({ type: 'text' })
  msg: string;

  @Column({ type: 'uuid' })
  origin: string;

  @Column({ type: 'varchar', length: 16, default: '' })
  level: string;

  @Column({ type: 'text', default: '' })
  link: string;
}
