import { Inject, Injectable } from '@nestjs/common';
import { WindowCounter } from '../common/concurrency/window-counter';
import { BRAKE_WINDOW_MS } from '../common/http/refusal-brake';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';

/**
 * The refusal brake (src/common/http/refusal-brake.ts) for websocket frames: a socket that keeps
 * sending requests the service refuses (too many waiting searches, a busy query worker, a query
 * too large to compile) gets each answer at once, and a client that resends at once loops them as
 * fast as the service answers (the hostile soak's sockets sent 370 a second, each authenticated
 * with a database read, some compiled in a query worker). Past REFUSAL_BRAKE_MAX refusals of one
 * user in 10 s, the socket of each further one reads nothing until REFUSAL_BRAKE_DELAY_MS after the
 * user's previous held refusal: one refused request a delay per user, however many sockets it
 * opens. TCP holds the client back, at no cost to the service.
 */
@Injectable()
export class WsRefusalBrake {
  private readonly refusals = new WindowCounter(BRAKE_WINDOW_MS);
  /** When each braked user's next refused request may be read (ms since the epoch). */
  private readonly nextAt = new Map<number, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Counts a refusal of `uid`'s; answers how long its socket should stop reading (0: not yet). */
  refused(uid: number, now = Date.now()): number {
    const key = String(uid);
    this.refusals.record(key, now);
    if (this.refusals.blockedFor(key, this.config.refusalBrakeMax + 1, now) === 0) return 0;
    if (this.nextAt.size >= 10_000) for (const [u, at] of this.nextAt) if (at <= now) this.nextAt.delete(u);
    const at = Math.max(now, this.nextAt.get(uid) ?? 0) + this.config.refusalBrakeDelayMs;
    this.nextAt.set(uid, at);
    return at - now;
  }
}
