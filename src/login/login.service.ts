import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { AppError, refusal } from '../common/errors/app-error';
import { SessionsService } from '../sessions/sessions.service';
import { PasswordGuesses } from '../users/password-guesses';
import { UserCredentials } from '../users/user-credentials.service';
import { JwtKeyService } from '../identity/jwt-key.service';

/** A failed login: the product's `{LoginStatus:false, Reason}` with 422 (bad credentials, LOGIN_FAILED) or 423 (locked, LOGIN_ACCOUNT_LOCKED). */
export class LoginFailedError extends AppError {
  constructor(code: 'LOGIN_FAILED' | 'LOGIN_ACCOUNT_LOCKED') {
    const r = refusal(code);
    super(r.status, r.message, {}, r.code);
    this.name = 'LoginFailedError';
  }
}

@Injectable()
export class LoginService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: UserCredentials,
    private readonly sessions: SessionsService,
    private readonly jwt: JwtKeyService,
    private readonly guesses: PasswordGuesses,
  ) {}

  async login(username: string, password: string, origin: string): Promise<string> {
    const account = { account: username };
    const address = { address: origin };
    this.guesses.assertAllowed('failed logins', account, address);

    const user = await this.credentials.verify(username, password);
    if (!user) {
      this.guesses.failed(account, address);
      throw new LoginFailedError('LOGIN_FAILED');
    }
    if (user.locked) throw new LoginFailedError('LOGIN_ACCOUNT_LOCKED');
    this.guesses.succeeded(account);

    const sid = randomUUID();
    const ttl = this.config.jwtTtlSeconds;
    await this.sessions.create(sid, user.uid, origin, new Date(Date.now() + ttl * 1000));
    await this.credentials.markActive(user.uid);
    return this.jwt.sign(user.uid, sid, ttl);
  }
}
