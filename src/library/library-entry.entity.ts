import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A saved query of the search library. */
@Entity({ name: 'library_entry' })
export class LibraryEntryEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'library_entry_pkey' })
  thingUuid: string;

  @Column({ type: 'uuid' })
  guid: string;

  @Column({ type: 'integer' })
  uid: number;

  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  gids: number[];

  @Column({ type: 'boolean', default: false })
  global: boolean;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: '' })
  query: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  labels: string[];

  /** Opaque JSON, null when none. */
  @Column({ type: 'json', nullable: true })
  metadata: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
