import { Module } from '@nestjs/common';
import { TokenSettingsRepository } from './token-settings.repository';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

/**
 * The token API. Token authentication belongs to the identity core (`src/identity`: AuthRepository),
 * whose `token-secret.ts` (secret shape, digest) and `token-settings.sql.ts` (the admin switch for
 * non-admins) this module uses.
 */
@Module({
  controllers: [TokensController],
  providers: [TokensService, TokensRepository, TokenSettingsRepository],
})
export class TokensModule {}
