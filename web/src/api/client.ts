/**
 * The one way the console talks to the service. Every call is same-origin and carries
 * `X-Console: 1`: the service then reads the session from the HttpOnly `console_session` cookie it
 * set at sign-in (src/console/console-session.ts), so no script ever holds the JWT. A browser
 * never sends that header cross-site without a CORS preflight, which the service refuses.
 */

export const CONSOLE_HEADER = 'X-Console';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
    /** seconds, from Retry-After (429, 503) */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  json?: unknown;
  signal?: AbortSignal;
  /** survives page unload (detach on pagehide) */
  keepalive?: boolean;
  /** a 401 is this call's own answer (sign-in, session probe), not "the session has ended" */
  expect401?: boolean;
  /** more request headers (e.g. `If-Match`) */
  headers?: Record<string, string>;
}

/** An answer with its headers (for calls that need one, such as an `ETag`). */
export interface ApiResponse<T> {
  body: T;
  headers: Headers;
}

type Listener = () => void;
const sessionEndedListeners = new Set<Listener>();

/** Called whenever the service answers 401 to a signed-in call: the session expired or was revoked. */
export function onSessionEnded(fn: Listener): () => void {
  sessionEndedListeners.add(fn);
  return () => sessionEndedListeners.delete(fn);
}

/**
 * Tells the console the session has ended (the service answered 401, or closed a socket with
 * 4401): runs the onSessionEnded listeners, which offer the sign-in page. Calls through api() and
 * apiRaw() do this themselves; XMLHttpRequest uploads and websockets call it.
 */
export function sessionEnded(): void {
  for (const fn of [...sessionEndedListeners]) fn();
}

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * The words for a failed answer: the service's `Error` (or `Reason`) of its body (parsed, or the
 * text of it), else `fallback`, else the status line.
 */
export function errorMessage(status: number, statusText: string, body: unknown, fallback?: string): string {
  let b = body;
  if (typeof b === 'string') {
    try {
      b = JSON.parse(b);
    } catch {
      /* not JSON */
    }
  }
  if (b && typeof b === 'object') {
    const o = b as { Error?: unknown; Reason?: unknown };
    if (typeof o.Error === 'string' && o.Error) return o.Error;
    if (typeof o.Reason === 'string' && o.Reason) return o.Reason;
  }
  return fallback ?? `${status} ${statusText || 'error'}`;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A call whose answer the caller reads itself (a download as a Blob, say): same-origin, with the
 * console header and `opts.headers`. Resolves with the Response when it is ok; otherwise rejects
 * with ApiError carrying the service's `Error` text, and a 401 (unless `expect401`) tells the
 * console the session has ended. Aborts reject with the AbortError.
 */
export async function apiRaw(path: string, opts: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers, [CONSOLE_HEADER]: '1' };
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  let res: Response;
  try {
    res = await fetch(withQuery(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: opts.signal,
      keepalive: opts.keepalive,
    });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw new ApiError(0, 'The service cannot be reached. Check your connection and try again.');
  }
  if (res.ok) return res;
  const parsed = await readBody(res);
  const retry = Number(res.headers.get('Retry-After'));
  const error = new ApiError(res.status, errorMessage(res.status, res.statusText, parsed), parsed, Number.isFinite(retry) && retry > 0 ? retry : undefined);
  if (res.status === 401 && !opts.expect401) sessionEnded();
  throw error;
}

/** A JSON call; resolves with the parsed body (undefined when empty), rejects with ApiError. */
export async function api<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  return (await apiResponse<T>(path, opts)).body;
}

/** api(), with the answer's headers too. */
export async function apiResponse<T = unknown>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const res = await apiRaw(path, { ...opts, headers: { ...opts.headers, Accept: 'application/json' } });
  return { body: (await readBody(res)) as T, headers: res.headers };
}

export const isAbort = (err: unknown): boolean => (err as Error)?.name === 'AbortError';
