/**
 * The web console's session, kept out of reach of scripts: at sign-in the JWT goes into an
 * HttpOnly, SameSite=Strict cookie instead of the response body, and each console request gets
 * it back as its `Authorization` header, so the usual guard checks it (lock, logout and
 * expiry apply on the next request as for any client).
 *
 * Only requests that carry `X-Console: 1` use the cookie. Browsers never send that header
 * cross-site without a CORS preflight, which the service refuses (the header is not in its CORS
 * list), and SameSite=Strict keeps the cookie off cross-site requests besides. The one
 * exception is a same-origin download link (`GET .../download/<format>`, `Sec-Fetch-Site:
 * same-origin`), which cannot carry headers. Requests with their own credentials are untouched.
 */
import { NextFunction, Request, Response } from 'express';
import { IncomingHttpHeaders } from 'node:http';

export const SESSION_COOKIE = 'console_session';
/** No secret: tells the console that a session was expected (for "your session has ended"). */
export const MARKER_COOKIE = 'console_signed_in';
export const CONSOLE_HEADER = 'x-console';
const MARKER_MAX_AGE = 30 * 86400;
const DOWNLOAD = /^\/api\/searchctrl\/\d{1,19}\/download\/[a-z]{1,16}$/;

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const v = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9._-]{1,4096}$/.test(v) ? v : undefined;
    }
  }
  return undefined;
}

function setCookie(name: string, value: string, opts: { maxAge?: number; httpOnly?: boolean; path: string; secure: boolean }): string {
  return [
    `${name}=${value}`,
    `Path=${opts.path}`,
    'SameSite=Strict',
    ...(opts.maxAge !== undefined ? [`Max-Age=${opts.maxAge}`] : []),
    ...(opts.httpOnly ? ['HttpOnly'] : []),
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
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

/** On a console sign-in, the JWT of a successful answer moves from the body to the cookie. */
function captureLogin(req: Request, res: Response): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const b = body as { LoginStatus?: unknown; JWT?: unknown } | null;
    if (res.statusCode === 200 && b && b.LoginStatus === true && typeof b.JWT === 'string') {
      const secure = req.secure;
      res.append('Set-Cookie', setCookie(SESSION_COOKIE, b.JWT, { path: '/api', httpOnly: true, maxAge: secondsLeft(b.JWT), secure }));
      res.append('Set-Cookie', setCookie(MARKER_COOKIE, '1', { path: '/', maxAge: MARKER_MAX_AGE, secure }));
      const { JWT: _jwt, ...rest } = b;
      return json(rest);
    }
    return json(body);
  };
}

function clearCookies(req: Request, res: Response): void {
  res.append('Set-Cookie', setCookie(SESSION_COOKIE, '', { path: '/api', httpOnly: true, maxAge: 0, secure: req.secure }));
  res.append('Set-Cookie', setCookie(MARKER_COOKIE, '', { path: '/', maxAge: 0, secure: req.secure }));
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
  if (headers.authorization || headers['service-token']) return undefined;
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
  return cookieValue(headers.cookie, SESSION_COOKIE);
}

export function consoleSession() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const url = req.path;
    if (!url.startsWith('/api/')) return next();
    const fromConsole = req.headers[CONSOLE_HEADER] === '1';
    if (fromConsole && req.method === 'POST' && url === '/api/login') captureLogin(req, res);
    // Logging out (this session or all) ends the cookie too, whatever the answer.
    if (fromConsole && url === '/api/logout' && (req.method === 'PUT' || req.method === 'DELETE')) clearCookies(req, res);
    const download = req.method === 'GET' && DOWNLOAD.test(url) && req.headers['sec-fetch-site'] === 'same-origin';
    if ((fromConsole || download) && !req.headers.authorization && !req.headers['service-token']) {
      const jwt = cookieValue(req.headers.cookie, SESSION_COOKIE);
      if (jwt) req.headers.authorization = `Bearer ${jwt}`;
    }
    next();
  };
}
