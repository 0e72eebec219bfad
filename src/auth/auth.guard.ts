import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { forbidden } from '../common/errors/app-error';
import { AUTH_DECLARATION, AuthedRequest } from './auth.decorators';
import { AuthService, TOKEN_HEADER } from './auth.service';
import { tokenCookie } from './token-cookie';
import { AuthContext, AuthDeclaration } from './auth.types';

/**
 * The one global guard. Deny by default: a route must declare `@Public()` or `@Auth(...)`.
 * Order: credential -> session/token (revocation, expiry, lock) -> admin -> token capability.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const decl = this.reflector.getAllAndOverride<AuthDeclaration | undefined>(AUTH_DECLARATION, [ctx.getHandler(), ctx.getClass()]);
    if (!decl) throw forbidden('This route declares no access rule');
    if (decl.public) return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const fromCookie = decl.cookie && !req.headers.authorization && !req.headers[TOKEN_HEADER] ? tokenCookie(req.headers.cookie) : undefined;
    const auth = await this.auth.authenticate(req.headers, fromCookie);
    authorize(decl, auth);
    req.auth = auth;
    return true;
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
