import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Request } from 'express';
import { Observable } from 'rxjs';
import { markAuthenticated } from './connection-limits';

/**
 * Runs after the global guard: a connection whose request was authenticated stops counting
 * against its address's unauthenticated connections (MAX_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS).
 */
@Injectable()
export class AuthenticatedConnectionInterceptor implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() === 'http') {
      const req = ctx.switchToHttp().getRequest<Request & { auth?: unknown }>();
      if (req.auth) markAuthenticated(req.socket);
    }
    return next.handle();
  }
}
