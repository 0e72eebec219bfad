import { Inject, Injectable } from '@nestjs/common';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { WindowCounter } from '../common/concurrency/window-counter';

/** Whose guesses are counted: an account, a client address, or the current-password check of a password change. */
export type GuessKey = { account: string } | { address: string } | { passwordChangeOf: number; session: string };

/**
 * The one budget for guessing passwords, wherever a password is checked (login, password
 * change): each key may fail its `LOGIN_MAX_FAILURES_*` times in `LOGIN_WINDOW_SECONDS`, then
 * gets 429 with `Retry-After` until the window ends. In memory: one web server process.
 */
@Injectable()
export class PasswordGuesses {
  private readonly limiter: WindowCounter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.limiter = new WindowCounter(config.loginWindowSeconds * 1000);
  }

  /** 429 ("Too many <what>; try again in N seconds") while any of `keys` has used up its budget. */
  assertAllowed(what: string, ...keys: GuessKey[]): void {
    const wait = Math.max(...keys.map((k) => this.limiter.blockedFor(this.key(k), this.max(k))));
    if (wait > 0) throw refusal('TOO_MANY_PASSWORD_ATTEMPTS', what, wait).retryAfter(wait);
  }

  failed(...keys: GuessKey[]): void {
    for (const k of keys) this.limiter.record(this.key(k));
  }

  succeeded(key: GuessKey): void {
    this.limiter.reset(this.key(key));
  }

  /**
   * What an administrator sees of an account's failed sign-ins: how many in the current window,
   * and until when sign-in is refused (only while the budget is used up).
   */
  accountState(username: string): { failures: number; blockedUntil?: Date } | undefined {
    const key: GuessKey = { account: username };
    const f = this.limiter.state(this.key(key));
    if (!f) return undefined;
    return { failures: f.count, ...(f.count >= this.max(key) ? { blockedUntil: new Date(f.resetAt) } : {}) };
  }

  /** An administrator allows sign-in again (unlock): the account's failures are forgotten. */
  clearAccount(username: string): void {
    this.limiter.reset(this.key({ account: username }));
  }

  private key(k: GuessKey): string {
    if ('account' in k) return `u:${k.account.toLowerCase()}`;
    if ('address' in k) return `a:${k.address}`;
    return `p:${k.passwordChangeOf}:${k.session}`;
  }

  private max(k: GuessKey): number {
    return 'address' in k ? this.config.loginMaxFailuresPerAddress : this.config.loginMaxFailuresPerAccount;
  }
}
