import { Column, Entity, ForeignKey, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

@Entity({ name: 'app_group' })
export class GroupEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT', primaryKeyConstraintName: 'app_group_pkey' })
  gid: number;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

@Entity({ name: 'group_member' })
export class GroupMemberEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'group_member_pkey' })
  @ForeignKey(() => GroupEntity, { name: 'group_member_gid_fkey', onDelete: 'CASCADE' })
  gid: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'group_member_pkey' })
  @ForeignKey(() => UserEntity, { name: 'group_member_uid_fkey', onDelete: 'CASCADE' })
  @Index('group_member_uid_idx')
  uid: number;
}
