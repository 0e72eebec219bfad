import { Inject, Injectable } from '@nestjs/common';
import * as bcrypt from 'bcrypt';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { AppError } from '../common/errors/app-error';
import { SessionsRepository } from '../sessions/sessions.repository';
import { PasswordGuesses } from '../users/password-guesses';
import { PasswordHasher } from '../users/password-hasher';
import { UsersRepository } from '../users/users.repository';
import { JwtKeyService } from './jwt-key.service';

/** A failed login: the product's `{LoginStatus:false, Reason}` with 422 (bad credentials) or 423 (locked). */
export class LoginFailedError extends AppError {}

const BAD_CREDENTIALS = 'Invalid username or password';

@Injectable()
export class LoginService {
  /** Compared against when the user does not exist, so timing does not reveal user names. */
  private readonly dummyHash: Promise<string>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly jwt: JwtKeyService,
    private readonly passwords: PasswordHasher,
    private readonly guesses: PasswordGuesses,
  ) {
    this.dummyHash = bcrypt.hash('dummy-password-for-timing', config.bcryptRounds); // once, at start-up
  }

  async login(username: string, password: string, origin: string): Promise<string> {
    const account = { account: username };
    const address = { address: origin };
    this.guesses.assertAllowed('failed logins', account, address);

    const user = await this.users.findByUsername(username);
    const ok = await this.passwords.compare(password, user?.passwordHash ?? (await this.dummyHash));
    if (!user || !ok) {
      this.guesses.failed(account, address);
      throw new LoginFailedError(422, BAD_CREDENTIALS);
    }
    if (user.locked) throw new LoginFailedError(423, 'Account is locked');
    this.guesses.succeeded(account);

    const sid = randomUUID();
    const ttl = this.config.jwtTtlSeconds;
    await this.sessions.create({ id: sid, uid: user.uid, origin: origin.slice(0, 64), expiresAt: new Date(Date.now() + ttl * 1000) });
    await this.users.markActive(user.uid);
    return this.jwt.sign(user.uid, sid, ttl);
  }
}
