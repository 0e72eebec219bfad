import { Module } from '@nestjs/common';
import { TokenSettingsRepository } from './token-settings.repository';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

/**
 * The token API. Token authentication is the auth feature's (`AuthRepository`), which shares
 * `token-secret.ts` (secret shape, digest) and `token-settings.sql.ts` (the admin switch for
 * non-admins) with this module.
 */
@Module({
  controllers: [TokensController],
  providers: [TokensService, TokensRepository, TokenSettingsRepository],
})
export class TokensModule {}
