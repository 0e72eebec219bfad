import { IncomingHttpHeaders } from 'node:http';
import { refusal } from '../common/errors/app-error';

/** The API token header of the contract (`Service-Token`), as Node names it. */
export const TOKEN_HEADER = 'service-token';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Three base64url parts: what is worth a signature check (and what a websocket subprotocol must look like to be taken for a JWT). */
export const isJwtShaped = (value: string): boolean => JWT_SHAPE.test(value);

/** What a caller presents, not yet verified: a JWT (a session) or an API token's secret. */
export type Credential = { kind: 'jwt'; jwt: string } | { kind: 'token'; secret: string | undefined };

/** The JWT of `Authorization: Bearer <JWT>`. */
export function bearerJwt(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/**
 * The one credential of a request: its `Service-Token`, else a JWT from wherever the caller's
 * kind of client sends it (`jwtElsewhere`: the console's cookie, the `token` cookie, a websocket
 * subprotocol), else `Authorization: Bearer`. Rule when a token and a JWT are both sent: refused,
 * so a token can never be widened by a JWT.
 */
export function credentialOf(headers: IncomingHttpHeaders, jwtElsewhere?: string): Credential {
  const tokenHeader = headers[TOKEN_HEADER];
  if (tokenHeader !== undefined && (headers.authorization !== undefined || jwtElsewhere !== undefined)) {
    throw refusal('TOKEN_AND_JWT_SENT');
  }
  if (tokenHeader !== undefined) return { kind: 'token', secret: Array.isArray(tokenHeader) ? tokenHeader[0] : tokenHeader };
  const jwt = jwtElsewhere ?? bearerJwt(headers.authorization);
  if (!jwt) throw refusal('CREDENTIALS_REQUIRED');
  return { kind: 'jwt', jwt };
}
