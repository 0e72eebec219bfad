/**
 * Archive imports per user: at most IMPORT_MAX_PER_MINUTE started in a minute, counted before the
 * upload is read (this interceptor is listed before the multipart one). Each import inflates and
 * parses an untrusted archive on the web server, so one user looping imports (a gzip bomb each
 * time) would otherwise take the HTTP thread from everyone; beyond the budget the answer is 429
 * with Retry-After, and nothing of the upload is read.
 */
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { AuthContext } from '../identity/auth.types';
import { WindowCounter } from '../common/concurrency/window-counter';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';

const WINDOW_MS = 60_000;

@Injectable()
export class ImportBudgetInterceptor implements NestInterceptor {
  private readonly started = new WindowCounter(WINDOW_MS);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const auth = context.switchToHttp().getRequest<{ auth?: AuthContext }>().auth;
    const key = String(auth?.uid ?? 'anonymous');
    const max = this.config.importMaxPerMinute;
    const wait = this.started.blockedFor(key, max);
    if (wait > 0) throw refusal('IMPORT_RATE_LIMITED', max, wait).retryAfter(wait);
    this.started.record(key);
    return next.handle();
  }
}
