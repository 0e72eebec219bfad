import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

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
  gid: number;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'group_member_pkey' })
  uid: number;
}
