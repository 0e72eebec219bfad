import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';

/** A saved query of the search library. */
@Entity({ name: 'library_entry' })
export class LibraryEntryEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'library_entry_pkey' })
  thingUuid: string;

  @Column({ type: 'uuid' })
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
