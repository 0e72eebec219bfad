import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { NON_ADMIN_TOKENS_KEY, nonAdminTokensSql } from '../identity/token-settings.sql';

/** The admin switch "non-admins may use API tokens", stored in table `setting`. */
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
