import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { LoginController } from './login.controller';
import { LoginService } from './login.service';

/** Login and logout (`POST /api/login`, `/api/logout`...): a feature beside sessions, on the identity core. */
@Module({
  imports: [UsersModule, SessionsModule],
  controllers: [LoginController],
  providers: [LoginService],
})
export class LoginModule {}
