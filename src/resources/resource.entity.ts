import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { bigintNumber } from '../storage/columns';
import { UserEntity } from '../users/user.entity';

@Entity({ name: 'resource' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'resource_uid_fkey', onDelete: 'CASCADE' })
@Index('resource_uid_idx', ['uid'])
@Index('resource_gids_idx', ['gids'], { type: 'gin' })
@Check('resource_size_check', 'size >= 0')
export class ResourceEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'resource_pkey' })
  guid: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** The blob holding the contents; null until the first upload. */
  @Column({ type: 'uuid', nullable: true })
  @Index('resource_content_id_uq', { unique: true })
  contentId: string | null;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  size: number;

  /** Lower-case hex SHA-256 of the contents; '' without contents. */
  @Column({ type: 'varchar', length: 64, default: '' })
  hash: string;

  @Column({ type: 'varchar', length: 255, default: 'application/octet-stream' })
  contentType: string;

  @Column({ type: 'integer', default: 0 })
  versionNumber: number;

  @Column({ type: 'integer', default: 0 })
  domain: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastModified: Date;
}
