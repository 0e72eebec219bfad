import { IncomingHttpHeaders } from 'node:http';
import { refusal } from '../common/errors/app-error';

/**
 * Cross-site request forgery: a browser attaches cookies to requests that other sites make it
 * send. A request authenticated by the `token` cookie is accepted only when it says where it
 * comes from (`Origin`, else `Referer`) and that is this service itself (the `Host` it was sent
 * to) or an origin allowed by `CORS_ORIGINS`.
 */
export function assertSameOrigin(headers: IncomingHttpHeaders, allowedOrigins: readonly string[]): void {
  const from = originOf(headers.origin) ?? originOf(headers.referer);
  if (!from) throw refusal('ORIGIN_REQUIRED');
  const host = headers.host;
  const own = host !== undefined && (from === `http://${host}` || from === `https://${host}`);
  if (!own && !allowedOrigins.includes(from)) throw refusal('CROSS_SITE_REQUEST', from);
}

function originOf(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}
