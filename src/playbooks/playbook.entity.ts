import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { SharedObjectEntity } from '../sharing/shared-object.entity';
import { UserEntity } from '../users/user.entity';

/**
 * A playbook (the product's Playbook, client/types/playbooks.go): markdown notes with embedded
 * queries. `uuid` is this server's key for it; `guid` names the content across owners (kits
 * install the same GUID for everyone), one per owner. Body and metadata are bytes, as the product
 * keeps them (the API carries them base64).
 */
@Entity({ name: 'playbook' })
@ForeignKey(() => UserEntity, ['uid'], ['uid'], { name: 'playbook_uid_fkey', onDelete: 'CASCADE' })
@Index('playbook_uid_guid_uq', ['uid', 'guid'], { unique: true })
@Index('playbook_gids_idx', ['gids'], { type: 'gin' })
export class PlaybookEntity extends SharedObjectEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'playbook_pkey' })
  uuid: string;

  @Column({ type: 'uuid' })
  @Index('playbook_guid_idx')
  guid: string;

  @Column({ type: 'varchar', length: 256 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  /** The markdown, as bytes (not loaded by the listings). */
  @Column({ type: 'bytea' })
  body: Buffer;

  /** The product console's metadata (base64 JSON of cover and banner images); empty: none. */
  @Column({ type: 'bytea' })
  metadata: Buffer;

  @Column({ type: 'text', default: '' })
  authorName: string;

  @Column({ type: 'text', default: '' })
  authorEmail: string;

  @Column({ type: 'text', default: '' })
  authorCompany: string;

  @Column({ type: 'text', default: '' })
  authorUrl: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
