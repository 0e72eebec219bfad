/**
 * The one reader and writer of cookies: the guard reads the console's `console_session` and the
 * `token` cookie with it, websocket upgrades the console's cookie, and login writes the console's
 * two cookies with `setCookie`.
 */

/** The value (trimmed) of the first cookie called `name` in a `Cookie` header; later ones are not looked at. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  path: string;
  /** Seconds; omitted: a browser-session cookie; 0: delete it. */
  maxAge?: number;
  httpOnly?: boolean;
  secure: boolean;
}

/** A `Set-Cookie` value. Always SameSite=Strict: no cookie of this service goes along on another site's requests. */
export function setCookie(name: string, value: string, opts: CookieOptions): string {
  return [
    `${name}=${value}`,
    `Path=${opts.path}`,
    'SameSite=Strict',
    ...(opts.maxAge !== undefined ? [`Max-Age=${opts.maxAge}`] : []),
    ...(opts.httpOnly ? ['HttpOnly'] : []),
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
}
