import { Inject, Injectable } from '@nestjs/common';
import * as bcrypt from 'bcrypt';
import { refusal } from '../common/errors/app-error';
import { Semaphore } from '../common/concurrency/semaphore';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';

/** Password checks waiting for a slot beyond this answer 503 at once (with Retry-After). */
export const MAX_WAITING_PER_SLOT = 64;

/**
 * bcrypt, with at most BCRYPT_CONCURRENCY hashes at a time (default: one core fewer than the
 * machine has). Each hash holds a core for ~100-250 ms; unbounded, a login storm fills libuv's
 * thread pool and every core, and ordinary requests starve (`npm run bench`, section 6).
 */
@Injectable()
export class PasswordHasher {
  private readonly slots: Semaphore;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const n = config.bcryptConcurrency;
    this.slots = new Semaphore(n, n * MAX_WAITING_PER_SLOT, () => refusal('PASSWORD_CHECKS_BUSY').retryAfter(1));
  }

  hash(password: string): Promise<string> {
    return this.slots.run(() => bcrypt.hash(password, this.config.bcryptRounds));
  }

  compare(password: string, hash: string): Promise<boolean> {
    return this.slots.run(() => bcrypt.compare(password, hash));
  }
}
