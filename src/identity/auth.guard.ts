import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { AUTH_DECLARATION, AuthedRequest } from './auth.decorators';
import { AuthService, TOKEN_HEADER } from './auth.service';
import { assertSameOrigin } from './same-origin';
import { asSplunkRefusal, splunkSecret } from './splunk-credential';
import { tokenCookie } from './token-cookie';
import { AuthContext, AuthDeclaration } from './auth.types';

/**
 * The one global guard. Deny by default: a route must declare `@Public()` or `@Auth(...)`.
 * Order: credential (as the declaration says: JWT or `Service-Token`, the `token` cookie where
 * allowed, or a Splunk credential) -> session/token (revocation, expiry, lock) -> admin -> token
 * capability.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const decl = this.reflector.getAllAndOverride<AuthDeclaration | undefined>(AUTH_DECLARATION, [ctx.getHandler(), ctx.getClass()]);
    if (!decl) throw forbidden('This route declares no access rule');
    if (decl.public) return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    req.auth = decl.credential === 'splunk' ? await this.splunk(req, decl) : await this.standard(req, decl);
    return true;
  }

  /** A JWT (`Authorization: Bearer`, or the `token` cookie where the route allows it) or a `Service-Token`. */
  private async standard(req: AuthedRequest, decl: AuthDeclaration): Promise<AuthContext> {
    const fromCookie = decl.cookie && !req.headers.authorization && !req.headers[TOKEN_HEADER] ? tokenCookie(req.headers.cookie) : undefined;
    if (fromCookie) assertSameOrigin(req.headers, this.config.corsOrigins);
    const auth = await this.auth.authenticate(req.headers, fromCookie);
    authorize(decl, auth);
    return auth;
  }

  /** An API token from `Authorization: Splunk <token>`, else `?token=`; refusals in HEC's terms. */
  private async splunk(req: AuthedRequest, decl: AuthDeclaration): Promise<AuthContext> {
    try {
      const auth = await this.auth.fromToken(splunkSecret(req));
      authorize(decl, auth);
      return auth;
    } catch (err) {
      throw asSplunkRefusal(err);
    }
  }
}

/** Route-level rights: admin-only routes and token capabilities. */
export function authorize(decl: AuthDeclaration, auth: AuthContext): void {
  if (auth.token) {
    if (decl.admin) throw forbidden('Admin APIs are not available to API tokens');
    if (decl.anyToken) return;
    if (!decl.capability) throw forbidden('This API is not available to API tokens');
    if (!auth.token.capabilities.has(decl.capability)) throw forbidden(`API token lacks the ${decl.capability} capability`);
    return;
  }
  if (decl.admin && !auth.isAdmin) throw forbidden('Admin only');
}
