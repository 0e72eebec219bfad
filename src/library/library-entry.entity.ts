import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';

/** A saved query of the search library. */
@Entity({ name: 'library_entry' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'library_entry_uid_fkey', onDelete: 'CASCADE' })
@Index('library_entry_uid_idx', ['uid'])
@Index('library_entry_gids_idx', ['gids'], { type: 'gin' })
export class LibraryEntryEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'library_entry_pkey' })
  thingUuid: string;

  @Column({ type: 'uuid' })
  @Index('library_entry_guid_idx')
  guid: string;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: '' })
  query: string;

  /** Opaque JSON, null when none. */
  @Column({ type: 'json', nullable: true })
  metadata: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
