import { Module } from '@nestjs/common';
import { TokenSettingsRepository } from './token-settings.repository';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

/**
 * The token API. Token authentication (`TokenAuthRepository`, `token-secret.ts`) is used by
 * AuthModule; the admin switch for non-admins is read by both through `token-settings.repository.ts`.
 */
@Module({
  controllers: [TokensController],
  providers: [TokensService, TokensRepository, TokenSettingsRepository],
  exports: [TokenSettingsRepository],
})
export class TokensModule {}
