import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupEntity, GroupMemberEntity } from '../groups/group.entity';
import { SessionEntity } from '../sessions/session.entity';
import { UserEntity } from './user.entity';
import { SessionEvents } from '../sessions/session-events';
import { SessionsRepository } from '../sessions/sessions.repository';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { PasswordGuesses } from './password-guesses';
import { PasswordHasher } from './password-hasher';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, GroupEntity, GroupMemberEntity, SessionEntity])],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, SessionsRepository, SessionEvents, AdminBootstrapService, PasswordHasher, PasswordGuesses],
  exports: [UsersService, UsersRepository, SessionsRepository, SessionEvents, PasswordHasher, PasswordGuesses],
})
export class UsersModule {}
