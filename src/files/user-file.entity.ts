import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../storage/columns';

@Entity({ name: 'user_file' })
export class UserFileEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'user_file_pkey' })
  thingUuid: string;

  /** Not unique on the service (unique per owner). */
  @Column({ type: 'uuid' })
  guid: string;

  @Column({ type: 'integer' })
  uid: number;

  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  gids: number[];

  @Column({ type: 'boolean', default: false })
  global: boolean;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  labels: string[];

  @Column({ type: 'uuid' })
  contentId: string;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  size: number;

  @Column({ type: 'varchar', length: 64, default: '' })
  hash: string;

  @Column({ type: 'varchar', length: 255, default: 'application/octet-stream' })
  contentType: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updated: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
