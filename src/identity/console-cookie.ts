/**
 * The web console's session, kept out of reach of scripts: at a console sign-in the JWT goes into
 * an HttpOnly, SameSite=Strict cookie instead of the answer's body (src/login writes it), and the
 * guard reads it back as the console's JWT, so lock, logout and expiry apply on the next request
 * as for any client.
 *
 * Only requests that carry `X-Console: 1` use the cookie. Browsers never send that header
 * cross-site without a CORS preflight, which the service refuses (the header is not in its CORS
 * list), and SameSite=Strict keeps the cookie off cross-site requests besides. The exceptions
 * are a same-origin download link (`GET .../download/<format>`, `Sec-Fetch-Site: same-origin`)
 * and a same-origin websocket handshake, which cannot carry headers. Requests with credentials
 * of their own (`Authorization`, `Service-Token`) never use it.
 */
import { IncomingHttpHeaders } from 'node:http';
import { cookieValue, setCookie } from './cookies';
import { TOKEN_HEADER } from './credentials';

export const SESSION_COOKIE = 'console_session';
/** No secret: tells the console that a session was expected (for "your session has ended"). */
export const MARKER_COOKIE = 'console_signed_in';
export const CONSOLE_HEADER = 'x-console';
const MARKER_MAX_AGE = 30 * 86400;
const DOWNLOAD = /^\/api\/searchctrl\/\d{1,19}\/download\/[a-z]{1,16}$/;
/** What the session cookie may hold; anything else is no cookie at all. */
const COOKIE_VALUE = /^[A-Za-z0-9._-]{1,4096}$/;

/** A request the console made through its API client (`X-Console: 1`). */
export const isConsoleRequest = (headers: IncomingHttpHeaders): boolean => headers[CONSOLE_HEADER] === '1';

const hasOwnCredential = (headers: IncomingHttpHeaders): boolean => !!headers.authorization || !!headers[TOKEN_HEADER];

function sessionCookie(cookieHeader: string | undefined): string | undefined {
  const value = cookieValue(cookieHeader, SESSION_COOKIE);
  return value !== undefined && COOKIE_VALUE.test(value) ? value : undefined;
}

/** The console's JWT of an HTTP request: console requests and same-origin download links without credentials of their own. */
export function consoleRequestJwt(req: { method: string; path: string; headers: IncomingHttpHeaders }): string | undefined {
  const download = req.method === 'GET' && DOWNLOAD.test(req.path) && req.headers['sec-fetch-site'] === 'same-origin';
  if (!(isConsoleRequest(req.headers) || download) || hasOwnCredential(req.headers)) return undefined;
  return sessionCookie(req.headers.cookie);
}

/**
 * The console's JWT for a websocket upgrade (`/api/ws/*`). Browsers cannot add `X-Console` to a
 * websocket handshake, so the cookie stands in only when the page opening the socket is this
 * origin's: the `Origin` header (always sent by browsers on websocket handshakes, never settable
 * by scripts) names this host, `Sec-Fetch-Site` (when sent) is `same-origin`, and the request
 * carries no credentials of its own. SameSite=Strict keeps the cookie off cross-site handshakes
 * besides: no cross-site websocket hijacking.
 */
export function consoleUpgradeJwt(headers: IncomingHttpHeaders): string | undefined {
  if (hasOwnCredential(headers)) return undefined;
  const origin = headers.origin;
  const host = headers.host;
  if (typeof origin !== 'string' || !host) return undefined;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return undefined;
  }
  if (originHost.toLowerCase() !== host.toLowerCase()) return undefined;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return undefined;
  return sessionCookie(headers.cookie);
}

/** Seconds until the JWT's `exp` (undefined when it cannot be read: a browser-session cookie). */
export function secondsLeft(jwt: string, now = Date.now()): number | undefined {
  try {
    const exp = (JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? Math.max(0, Math.floor(exp - now / 1000)) : undefined;
  } catch {
    return undefined;
  }
}

/** The `Set-Cookie` values of a console sign-in: the JWT (HttpOnly, `/api`, as long as the JWT lives) and the marker. */
export function consoleSessionCookies(jwt: string, secure: boolean): string[] {
  return [
    setCookie(SESSION_COOKIE, jwt, { path: '/api', httpOnly: true, maxAge: secondsLeft(jwt), secure }),
    setCookie(MARKER_COOKIE, '1', { path: '/', maxAge: MARKER_MAX_AGE, secure }),
  ];
}

/** The `Set-Cookie` values that end both cookies (a console sign-out). */
export function clearedConsoleCookies(secure: boolean): string[] {
  return [setCookie(SESSION_COOKIE, '', { path: '/api', httpOnly: true, maxAge: 0, secure }), setCookie(MARKER_COOKIE, '', { path: '/', maxAge: 0, secure })];
}
