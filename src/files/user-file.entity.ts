import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { bigintNumber } from '../storage/columns';
import { UserEntity } from '../users/user.entity';

@Entity({ name: 'user_file' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'user_file_uid_fkey', onDelete: 'CASCADE' })
@Index('user_file_uid_guid_uq', ['uid', 'guid'], { unique: true })
@Index('user_file_gids_idx', ['gids'], { type: 'gin' })
@Check('user_file_size_check', 'size >= 0')
export class UserFileEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'user_file_pkey' })
  thingUuid: string;

  /** Not unique on the service (unique per owner). */
  @Column({ type: 'uuid' })
  @Index('user_file_guid_idx')
  guid: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'uuid' })
  @Index('user_file_content_id_uq', { unique: true })
  contentId: string;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  size: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  hash: string;

  @Column({ type: 'varchar', length: 255, default: 'application/octet-stream' })
  contentType: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated: Date;
}
