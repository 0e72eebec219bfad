import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { Request } from 'express';
import { AuthContext, AuthDeclaration } from './auth.types';

export const AUTH_DECLARATION = 'auth:declaration';

/** No credentials needed. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(AUTH_DECLARATION, { public: true } satisfies AuthDeclaration);

/**
 * Signed-in callers only. `admin`: admins only (never through a token); `capability`: what an
 * API token must hold to reach the route (tokens are refused on routes that name none).
 */
export const Auth = (opts: Omit<AuthDeclaration, 'public'> = {}): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTH_DECLARATION, { ...opts } satisfies AuthDeclaration),
    ApiBearerAuth('jwt'),
    ...(opts.capability || opts.anyToken ? [ApiSecurity('token')] : []),
  );

export type AuthedRequest = Request & { auth?: AuthContext; id?: unknown };

/** The caller established by the guard. */
export const CurrentAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthedRequest>().auth;
  if (!auth) throw new Error('CurrentAuth used on a route without @Auth');
  return auth;
});
