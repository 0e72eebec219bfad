import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';

/** Key in table `setting` of the admin switch "non-admins may use API tokens" (contract: Authentication 8). */
export const NON_ADMIN_TOKENS_KEY = 'NonAdminTokens';

/**
 * SQL: true when non-admin users may use API tokens. `$n` is the config default used while no
 * admin has set the switch. Shared by the token API and token authentication.
 */
export const nonAdminTokensSql = (defaultParam: string) =>
  `COALESCE((SELECT s.value = 'true'::jsonb FROM setting s WHERE s.key = '${NON_ADMIN_TOKENS_KEY}'), ${defaultParam}::boolean)`;

@Injectable()
export class TokenSettingsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async nonAdminTokens(): Promise<boolean> {
    const rows: Array<{ on: boolean }> = await this.ds.query(`SELECT ${nonAdminTokensSql('$1')} AS on`, [this.config.tokensForNonAdmins]);
    return rows[0]?.on ?? this.config.tokensForNonAdmins;
  }

  async setNonAdminTokens(on: boolean): Promise<void> {
    await this.ds.query(
      `INSERT INTO setting (key, value, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [NON_ADMIN_TOKENS_KEY, JSON.stringify(on)],
    );
  }
}
