import { Inject, Injectable } from '@nestjs/common';
import * as bcrypt from 'bcrypt';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { PasswordHasher } from './password-hasher';
import { UsersRepository } from './users.repository';

/** An account whose password was just verified. */
export interface VerifiedAccount {
  uid: number;
  locked: boolean;
}

/** The login's account check: password hashes never leave the users feature. */
@Injectable()
export class UserCredentials {
  /** Compared against when the user does not exist, so timing does not reveal user names. */
  private readonly dummyHash: Promise<string>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
  ) {
    this.dummyHash = bcrypt.hash('dummy-password-for-timing', config.bcryptRounds); // once, at start-up
  }

  /** The account when the password is right (locked or not); undefined for an unknown user or a wrong password. */
  async verify(username: string, password: string): Promise<VerifiedAccount | undefined> {
    const user = await this.users.findByUsername(username);
    const ok = await this.passwords.compare(password, user?.passwordHash ?? (await this.dummyHash));
    return user && ok ? { uid: user.uid, locked: user.locked } : undefined;
  }

  markActive(uid: number): Promise<void> {
    return this.users.markActive(uid);
  }
}
