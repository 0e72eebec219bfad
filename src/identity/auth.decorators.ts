import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiQuery, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Request } from 'express';
import { AuthContext, AuthDeclaration } from './auth.types';
import { Capability } from './capabilities';

export const AUTH_DECLARATION = 'auth:declaration';

/** No credentials needed. */
export const Public = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_DECLARATION, { public: true } satisfies AuthDeclaration), ApiExtension('x-access', 'public'));

/** A JWT or an API token (`Service-Token`); see `Auth`. */
type StandardAuth = Omit<AuthDeclaration, 'public' | 'credential'>;
/** A Splunk HEC credential: an API token holding `capability`, nothing else. */
type SplunkAuth = { capability: Capability; credential: 'splunk' };

/**
 * Signed-in callers only. `admin`: admins only (never through a token); `capability`: what an
 * API token must hold to reach the route (tokens are refused on routes that name none).
 * `credential: 'splunk'` (Splunk HEC routes): only an API token holding `capability`, sent as
 * `Authorization: Splunk <token>` or `?token=`; the guard refuses others with a
 * `SplunkCredentialError` (HEC codes 2, 3, 4), which the HEC routes answer in HEC's shape.
 */
export const Auth = (opts: StandardAuth | SplunkAuth = {}): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_DECLARATION, { ...opts } satisfies AuthDeclaration), ...('credential' in opts ? splunkDocs(opts) : standardDocs(opts)));

/** The OpenAPI document states who may call each route and what a token needs. */
function standardDocs(opts: StandardAuth) {
  return [
    ApiBearerAuth('jwt'),
    ...(opts.capability || opts.anyToken ? [ApiSecurity('token')] : []),
    ApiExtension('x-access', opts.admin ? 'admin' : 'user'),
    ...(opts.capability ? [ApiExtension('x-capability', opts.capability)] : []),
    ...(opts.anyToken ? [ApiExtension('x-capability', 'any')] : []),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired credentials' }),
    ApiForbiddenResponse({ description: opts.admin ? 'Not an admin, or an API token' : 'Token lacks the capability, or no access' }),
  ];
}

function splunkDocs(opts: SplunkAuth) {
  return [
    ApiSecurity('splunk'),
    ApiQuery({ name: 'token', required: false, type: String, description: 'the API token, when not sent as `Authorization: Splunk <token>`' }),
    ApiExtension('x-access', 'user'),
    ApiExtension('x-capability', opts.capability),
    ApiExtension('x-credential', 'splunk'),
    ApiUnauthorizedResponse({ description: 'Missing or invalid token (HEC code 2, 3 or 4)' }),
    ApiForbiddenResponse({ description: `Token lacks the ${opts.capability} capability (HEC code 4)` }),
  ];
}

export type AuthedRequest = Request & { auth?: AuthContext; id?: unknown };

/** The caller established by the guard. */
export const CurrentAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthedRequest>().auth;
  if (!auth) throw new Error('CurrentAuth used on a route without @Auth');
  return auth;
});
