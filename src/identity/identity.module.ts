import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { createSecretKey, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { readOrCreateSecret } from '../database/embedded-postgres';
import { AuthGuard } from './auth.guard';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { JWT_KEY, JwtKeyService } from './jwt-key.service';

/** JWT_SECRET, or 32 random bytes generated once and kept in `<DATA_DIR>/jwt-secret`. */
function jwtKey(config: AppConfig) {
  const secret = config.jwtSecret ?? readOrCreateSecret(path.join(config.dataDir, 'jwt-secret'), () => randomBytes(32).toString('base64')).value;
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

/**
 * Who is calling: the global guard (every HTTP route), AuthService (also used by websockets) and
 * its per-request identity reads (AuthRepository: session or API token). Global so that every
 * feature's routes are guarded and websockets can authenticate. Login and logout are a feature
 * (src/login) above it.
 */
@Global()
@Module({
  providers: [{ provide: JWT_KEY, inject: [APP_CONFIG], useFactory: jwtKey }, JwtKeyService, AuthRepository, AuthService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService, JwtKeyService],
})
export class IdentityModule {}
