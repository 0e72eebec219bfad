import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { refusal } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { AUTH_DECLARATION, AuthedRequest } from './auth.decorators';
import { AuthService } from './auth.service';
import { readCredential } from './request-credential';
import { asSplunkRefusal } from './splunk-credential';
import { AuthContext, AuthDeclaration } from './auth.types';

/**
 * The one global guard. Deny by default: a route must declare `@Public()` or `@Auth(...)`.
 * Order: credential (every kind is read here, as the declaration allows: JWT, `Service-Token`,
 * the console's session cookie, the `token` cookie, a Splunk credential; request-credential.ts)
 * -> session/token (revocation, expiry, lock) -> admin -> token capability. On Splunk HEC routes
 * refusals are in HEC's terms.
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
    if (!decl) throw refusal('ROUTE_WITHOUT_ACCESS_RULE');
    if (decl.public) return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    try {
      const auth = await this.auth.authenticate(readCredential(req, decl, this.config.corsOrigins));
      authorize(decl, auth);
      req.auth = auth;
    } catch (err) {
      throw decl.credential === 'splunk' ? asSplunkRefusal(err) : err;
    }
    return true;
  }
}

/** Route-level rights: admin-only routes and token capabilities. */
export function authorize(decl: AuthDeclaration, auth: AuthContext): void {
  if (auth.token) {
    if (decl.admin) throw refusal('ADMIN_API_NOT_FOR_TOKENS');
    if (decl.anyToken) return;
    if (!decl.capability) throw refusal('API_NOT_FOR_TOKENS');
    if (!auth.token.capabilities.has(decl.capability)) throw refusal('API_TOKEN_LACKS_CAPABILITY', decl.capability);
    return;
  }
  if (decl.admin && !auth.isAdmin) throw refusal('ADMIN_ONLY');
}
