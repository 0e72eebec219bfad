import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';

/** A search macro: `$NAME` in a query expands to `expansion` (src/query/macros.ts). */
@Entity({ name: 'macro' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'macro_uid_fkey', onDelete: 'CASCADE' })
@Index('macro_uid_name_uq', ['uid', 'name'], { unique: true })
@Index('macro_gids_idx', ['gids'], { type: 'gin' })
export class MacroEntity extends SharedObjectEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT', primaryKeyConstraintName: 'macro_pkey' })
  /** bigint, as text (the API answers a number) */
  id: string;

  @Column({ type: 'varchar', length: 128 })
  @Index('macro_name_idx')
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text' })
  expansion: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
