import { Column, Entity, ForeignKey, PrimaryGeneratedColumn } from 'typeorm';
import { GroupEntity } from '../groups/group.entity';

@Entity({ name: 'app_user' })
export class UserEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT', primaryKeyConstraintName: 'app_user_pkey' })
  uid: number;

  @Column({ type: 'varchar', length: 128 })
  username: string;

  @Column({ type: 'varchar', length: 256, default: '' })
  name: string;

  @Column({ type: 'varchar', length: 320, default: '' })
  email: string;

  @Column({ type: 'varchar', length: 100 })
  passwordHash: string;

  @Column({ type: 'boolean', default: false })
  admin: boolean;

  @Column({ type: 'boolean', default: false })
  locked: boolean;

  @Column({ type: 'integer', nullable: true })
  @ForeignKey(() => GroupEntity, { name: 'app_user_default_gid_fkey', onDelete: 'SET NULL' })
  defaultGid: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastActive: Date | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
