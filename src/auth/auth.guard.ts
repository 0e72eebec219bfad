import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, forbidden } from '../common/errors/app-error';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { AUTH_DECLARATION, AuthedRequest } from './auth.decorators';
import { AuthService, TOKEN_HEADER } from './auth.service';
import { assertSameOrigin } from './same-origin';
import { tokenCookie } from './token-cookie';
import { AuthContext, AuthDeclaration } from './auth.types';

/**
 * A refused Splunk HEC credential. Beyond its status it carries HEC's error code (2 token
 * required, 3 invalid authorization, 4 invalid token), which the HEC routes answer with.
 */
export class HecAuthError extends AppError {
  constructor(
    status: 401 | 403,
    readonly hecCode: 2 | 3 | 4,
    message: string,
  ) {
    super(status, message);
    this.name = 'HecAuthError';
  }
}

/**
 * The one global guard. Deny by default: a route must declare `@Public()` or `@Auth(...)`
 * (or `@HecAuth()`). Order: credential -> session/token (revocation, expiry, lock) -> admin ->
 * token capability.
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
    if (decl.hec) {
      req.auth = await this.authenticateHec(req, decl);
      return true;
    }
    const fromCookie = decl.cookie && !req.headers.authorization && !req.headers[TOKEN_HEADER] ? tokenCookie(req.headers.cookie) : undefined;
    if (fromCookie) assertSameOrigin(req.headers, this.config.corsOrigins);
    const auth = await this.auth.authenticate(req.headers, fromCookie);
    authorize(decl, auth);
    req.auth = auth;
    return true;
  }

  /** An API token from `Authorization: Splunk <token>`, else `?token=`; 401/403 become HecAuthError. */
  private async authenticateHec(req: AuthedRequest, decl: AuthDeclaration): Promise<AuthContext> {
    try {
      const auth = await this.auth.fromToken(hecSecret(req));
      authorize(decl, auth);
      return auth;
    } catch (err) {
      if (err instanceof HecAuthError || !(err instanceof AppError) || (err.status !== 401 && err.status !== 403)) throw err;
      throw new HecAuthError(err.status, 4, `Invalid token: ${err.message}`);
    }
  }
}

function hecSecret(req: AuthedRequest): string {
  const header = req.headers.authorization;
  if (header !== undefined) {
    const m = /^Splunk\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new HecAuthError(401, 3, 'Invalid authorization: use "Authorization: Splunk <token>"');
    return m[1];
  }
  const query = req.query.token;
  if (typeof query !== 'string' || !query) throw new HecAuthError(401, 2, 'Token is required');
  return query;
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
