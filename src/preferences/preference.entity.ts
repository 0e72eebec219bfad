import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Record kinds of the `user_preference` table (contract: admin listing `Name`). */
export const PREFERENCE_KINDS = ['prefs', 'emailSettings'] as const;
export type PreferenceKind = (typeof PREFERENCE_KINDS)[number];

/**
 * One JSON blob per user and kind. `data` is a `json` column (kept as the text we store, so
 * key order and every JSON value, `null` included, come back as stored).
 */
@Entity({ name: 'user_preference' })
export class UserPreferenceEntity {
  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'user_preference_pkey' })
  uid: number;

  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'user_preference_pkey' })
  name: PreferenceKind;

  @Column({ type: 'json' })
  data: unknown;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
