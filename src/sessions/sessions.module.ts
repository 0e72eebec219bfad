import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionEvents } from './session-events';
import { SessionEntity } from './session.entity';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/**
 * Login sessions. Used by auth (login, logout), users (lock, password change, deletion, the
 * session list of `GET /api/users/{id}/sessions`) and websockets (`SessionEvents`).
 */
@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity])],
  providers: [SessionsRepository, SessionsService, SessionEvents],
  exports: [SessionsService, SessionEvents],
})
export class SessionsModule {}
