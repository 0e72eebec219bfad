import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';

/** An autoextractor: how `ax` extracts the fields of entries of its tags (src/query/modules/ax.ts). */
@Entity({ name: 'autoextractor' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'autoextractor_uid_fkey', onDelete: 'CASCADE' })
@Index('autoextractor_uid_idx', ['uid'])
@Index('autoextractor_gids_idx', ['gids'], { type: 'gin' })
@Index('autoextractor_tags_idx', ['tags'], { type: 'gin' })
export class AutoextractorEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'autoextractor_pkey' })
  uuid: string;

  /** one or more; one definition per tag per owner (the service holds the rule) */
  @Column({ type: 'text', array: true })
  tags: string[];

  @Column({ type: 'varchar', length: 256, default: '' })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** the engine (AX_ENGINES) */
  @Column({ type: 'varchar', length: 32 })
  module: string;

  @Column({ type: 'text' })
  params: string;

  @Column({ type: 'text', default: '' })
  args: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
