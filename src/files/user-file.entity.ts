import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { bigintNumber } from '../storage/columns';

@Entity({ name: 'user_file' })
export class UserFileEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'user_file_pkey' })
  thingUuid: string;

  /** Not unique on the service (unique per owner). */
  @Column({ type: 'uuid' })
  guid: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

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
}
