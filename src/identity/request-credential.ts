import { Request } from 'express';
import { consoleRequestJwt } from './console-cookie';
import { cookieValue } from './cookies';
import { Credential, credentialOf, TOKEN_HEADER } from './credentials';
import { assertSameOrigin } from './same-origin';
import { splunkSecret } from './splunk-credential';
import { AuthDeclaration } from './auth.types';

/** What of an HTTP request the credential reader looks at. */
export type CredentialRequest = Pick<Request, 'method' | 'path' | 'headers' | 'query'>;

/**
 * Every credential kind an HTTP request may carry, read where its route's declaration allows it,
 * in this order:
 * - Splunk HEC routes (`credential: 'splunk'`): only an API token, as `Authorization: Splunk <token>`,
 *   else `?token=` (refusals carry HEC's codes, `SplunkCredentialError`).
 * - `Service-Token`: an API token. Sent with any JWT: 401.
 * - the console's `console_session` cookie, for console requests (`X-Console: 1`) and same-origin
 *   download links without an `Authorization` or `Service-Token` of their own (console-cookie.ts);
 * - the `token` cookie (a JWT) where the route allows it (`cookie: true`), without an
 *   `Authorization`, `Service-Token` or console cookie, from this service's own origin or a
 *   `CORS_ORIGINS` entry only (else 403);
 * - `Authorization: Bearer <JWT>`.
 * Nothing: 401.
 */
export function readCredential(req: CredentialRequest, decl: AuthDeclaration, allowedOrigins: readonly string[]): Credential {
  if (decl.credential === 'splunk') return { kind: 'token', secret: splunkSecret(req) };
  const headers = req.headers;
  const fromConsole = consoleRequestJwt(req);
  const fromCookie = !fromConsole && decl.cookie && !headers.authorization && !headers[TOKEN_HEADER] ? tokenCookie(headers.cookie) : undefined;
  if (fromCookie) assertSameOrigin(headers, allowedOrigins);
  return credentialOf(headers, fromConsole ?? fromCookie);
}

/** The `token` cookie (a JWT, as the product's tmptoken). */
function tokenCookie(header: string | undefined): string | undefined {
  const value = cookieValue(header, 'token');
  return value !== undefined && value.length > 0 && value.length <= 4096 ? value : undefined;
}
