import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { TemplateVariable } from '../query';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';

/** A search template: a query with variables (src/query/templates.ts fills them). */
@Entity({ name: 'template' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'template_uid_fkey', onDelete: 'CASCADE' })
@Index('template_uid_idx', ['uid'])
@Index('template_gids_idx', ['gids'], { type: 'gin' })
export class TemplateEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'template_pkey' })
  thingUuid: string;

  /** The GUID content (dashboards, actionables, kits) names it by; several owners may hold the same one. */
  @Column({ type: 'uuid' })
  @Index('template_guid_idx')
  guid: string;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'text', default: '' })
  query: string;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  variables: TemplateVariable[];

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
