/**
 * Slows down a client that keeps sending requests the service refuses for being too much (429,
 * 413). Such a refusal is cheap, but not free: each one is still parsed, authenticated with a
 * database read, logged and answered, and a client that ignores `Retry-After` loops them as fast
 * as the service answers (the hostile soak's archive-bomb loop sent 200 a second). Past
 * REFUSAL_BRAKE_MAX refusals of one credential in BRAKE_WINDOW_MS, each further request with that
 * credential is held for REFUSAL_BRAKE_DELAY_MS and answered 429 without being authenticated,
 * logged or read, and its connection closed. A client that honours `Retry-After` never meets the
 * brake; one that does not is held to one request a delay per connection.
 *
 * Refusals count per user (a user's many tokens and sessions share one brake), and a request is
 * matched to its user before it is verified, by the credential as sent (a hash of it) of an
 * earlier refused request: a forged credential only brakes itself, and a fresh token of a braked
 * user is braked from its first refusal. Requests without a credential (sign-in has its own
 * limit) pass untouched.
 */
import { createHash } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { WindowCounter } from '../concurrency/window-counter';
import { messageOf } from '../errors/codes';

export const BRAKE_WINDOW_MS = 10_000;
/** Statuses that say "too much" (rate, size): a client that keeps getting them is looping. */
const TOO_MUCH = new Set([413, 429]);

export interface RefusalBrakeOptions {
  /** Refusals of one credential within BRAKE_WINDOW_MS before the brake applies. */
  max: number;
  /** How long a braked request is held before its 429. */
  delayMs: number;
}

/** Credentials remembered (hash -> user) before the map starts over. */
const MAX_KNOWN_CREDENTIALS = 100_000;

export class RefusalBrake {
  private readonly refusals: WindowCounter;
  /** Credential hash -> the key its refusals count under (`uid:<n>`), learnt when one was refused. */
  private readonly owners = new Map<string, string>();

  constructor(
    private readonly opts: RefusalBrakeOptions,
    windowMs = BRAKE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.refusals = new WindowCounter(windowMs);
  }

  /** Seconds until the requests of `credential` (a credentialKey) pass again, or 0. */
  brakedFor(credential: string): number {
    return this.refusals.blockedFor(this.owners.get(credential) ?? credential, this.opts.max, this.now());
  }

  /** One more "too much" answer to `credential`, which belongs to user `uid` when it was authenticated. */
  refused(credential: string, uid?: number): void {
    let key = credential;
    if (uid !== undefined) {
      key = `uid:${uid}`;
      if (this.owners.size >= MAX_KNOWN_CREDENTIALS) this.owners.clear();
      this.owners.set(credential, key);
    }
    this.refusals.record(key, this.now());
  }

  /** Express-style middleware: holds and refuses braked credentials, counts the refusals of the rest. */
  readonly middleware = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const key = credentialKey(req);
    if (!key) return next();
    const wait = this.brakedFor(key);
    if (wait > 0) return this.hold(req, res, wait);
    res.once('finish', () => {
      if (TOO_MUCH.has(res.statusCode)) this.refused(key, (req as { auth?: { uid?: number } }).auth?.uid);
    });
    next();
  };

  private hold(req: IncomingMessage, res: ServerResponse, waitSeconds: number): void {
    req.pause(); // its body is never read
    const timer = setTimeout(() => {
      const body = JSON.stringify({ Error: messageOf('REFUSAL_BRAKE', this.opts.max, BRAKE_WINDOW_MS / 1000), Code: 'REFUSAL_BRAKE' });
      res.shouldKeepAlive = false;
      res.writeHead(429, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Retry-After': String(Math.max(1, Math.ceil(waitSeconds))) });
      res.end(body);
    }, this.opts.delayMs);
    res.once('close', () => clearTimeout(timer));
  }
}

/** What a request presents as its identity (a JWT, an API token, a session cookie), hashed; undefined when nothing. */
export function credentialKey(req: IncomingMessage): string | undefined {
  const h = req.headers;
  const query = req.url && req.url.includes('token=') ? new URL(req.url, 'http://x').searchParams.get('token') : null;
  if (!h.authorization && !h['service-token'] && !h.cookie && !query) return undefined;
  return createHash('sha256')
    .update(`${h.authorization ?? ''}\n${String(h['service-token'] ?? '')}\n${h.cookie ?? ''}\n${query ?? ''}`)
    .digest('base64url');
}
