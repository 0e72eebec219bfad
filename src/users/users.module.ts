import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GroupsModule } from '../groups/groups.module';
import { SessionsModule } from '../sessions/sessions.module';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { GroupMembersController } from './group-members.controller';
import { PasswordGuesses } from './password-guesses';
import { PasswordHasher } from './password-hasher';
import { UserCredentials } from './user-credentials.service';
import { UserEntity } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/**
 * User accounts and group memberships. Other features use UsersService (and the login
 * UserCredentials, PasswordGuesses), never the repository.
 */
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity]), GroupsModule, SessionsModule],
  controllers: [UsersController, GroupMembersController],
  providers: [UsersRepository, UsersService, UserCredentials, AdminBootstrapService, PasswordHasher, PasswordGuesses],
  exports: [UsersService, UserCredentials, PasswordGuesses],
})
export class UsersModule {}
