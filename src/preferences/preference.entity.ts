import { Check, Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** Record kinds of the `user_preference` table (contract: admin listing `Name`). */
export const PREFERENCE_KINDS = ['prefs', 'emailSettings'] as const;
export type PreferenceKind = (typeof PREFERENCE_KINDS)[number];

/**
 * One JSON blob per user and kind. `data` is a `json` column (kept as the text we store, so
 * key order and every JSON value, `null` included, come back as stored).
 */
@Entity({ name: 'user_preference' })
@Check('user_preference_name_check', `name IN ('prefs', 'emailSettings')`)
export class UserPreferenceEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'user_preference_pkey' })
  @ForeignKey(() => UserEntity, { name: 'user_preference_uid_fkey', onDelete: 'CASCADE' })
  uid: number;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'user_preference_pkey' })
  name: PreferenceKind;

  @Column({ type: 'json' })
  data: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
