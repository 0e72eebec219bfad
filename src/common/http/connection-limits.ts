import { Logger } from '@nestjs/common';
import { Server } from 'node:http';
import { Socket } from 'node:net';
import { refusal } from '../errors/app-error';
import { answerRawError } from './raw-answer';
import { refusalMargin } from './descriptor-limit';

export interface ConnectionLimitOptions {
  /** Connections open at once (HTTP and websockets); more are answered 503. */
  maxConnections: number;
  /** Connections from one address that have not yet carried an authenticated request; more are answered 429. */
  maxUnauthenticatedPerAddress: number;
  /** Time a client has to send a request's head (Node's `headersTimeout`), and its whole request (`requestTimeout`). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

/** The limits a socket was admitted under, and its address key while it is not yet authenticated. */
const admitted = new WeakMap<Socket, { limits: ConnectionLimits; address?: string }>();

/**
 * A socket that carried an authenticated request (or became an authenticated websocket) no
 * longer counts against its address's unauthenticated connections.
 */
export function markAuthenticated(socket: Socket | undefined): void {
  const s = socket && admitted.get(socket);
  if (!s?.address) return;
  s.limits.release(s.address);
  s.address = undefined;
}

/**
 * Descriptors are the one resource every client shares: these bounds keep a client that opens
 * connections and never finishes its request, or never signs in, from taking them all.
 *
 * - Node's own `headersTimeout` and `requestTimeout` close a connection whose request head (or
 *   whole request) is not in after that long (408), checked every quarter of it (at most 1 s).
 * - Each accepted connection passes a gate before Node's HTTP parser sees it: beyond
 *   `maxConnections` open, or `maxUnauthenticatedPerAddress` not-yet-authenticated ones from the
 *   client's address (IPv6: its /64), the connection is answered 503 or 429 with Retry-After and
 *   closed, its request never read. `server.maxConnections`, a little above, is Node's backstop
 *   for a flood of refusals: past it connections are closed at once without an answer.
 */
export class ConnectionLimits {
  private readonly logger = new Logger('Connections');
  private open = 0;
  private readonly unauthenticated = new Map<string, number>();
  private readonly refused = { total: 0, address: 0, dropped: 0 };
  private lastWarning = 0;

  private constructor(private readonly opts: ConnectionLimitOptions) {}

  static install(server: Server, opts: ConnectionLimitOptions): ConnectionLimits {
    const limits = new ConnectionLimits(opts);
    server.headersTimeout = opts.headersTimeoutMs;
    server.requestTimeout = opts.requestTimeoutMs;
    // Read when the server starts listening: how often Node checks the two timeouts (default 30 s).
    (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(25, Math.min(1000, Math.floor(opts.headersTimeoutMs / 4)));
    server.maxConnections = opts.maxConnections + refusalMargin(opts.maxConnections);
    server.on('drop', () => limits.count('dropped'));
    // Node's HTTP connection listener (and any other registered so far) sees admitted sockets only.
    const listeners = server.listeners('connection') as Array<(socket: Socket) => void>;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      if (!limits.admit(socket)) return;
      for (const listener of listeners) listener.call(server, socket);
    });
    return limits;
  }

  /** Admits the socket and counts it until it closes, or answers the refusal: false. */
  private admit(socket: Socket): boolean {
    const retryAfter = Math.max(1, Math.ceil(this.opts.headersTimeoutMs / 1000));
    if (this.open >= this.opts.maxConnections) {
      this.count('total');
      answerRawError(socket, refusal('TOO_MANY_CONNECTIONS').retryAfter(retryAfter));
      return false;
    }
    const address = addressKey(socket.remoteAddress);
    const waiting = this.unauthenticated.get(address) ?? 0;
    if (waiting >= this.opts.maxUnauthenticatedPerAddress) {
      this.count('address');
      answerRawError(socket, refusal('TOO_MANY_UNAUTHENTICATED_CONNECTIONS', this.opts.maxUnauthenticatedPerAddress).retryAfter(retryAfter));
      return false;
    }
    this.open++;
    this.unauthenticated.set(address, waiting + 1);
    const state = { limits: this as ConnectionLimits, address: address as string | undefined };
    admitted.set(socket, state);
    socket.once('close', () => {
      this.open--;
      if (state.address) this.release(state.address);
    });
    return true;
  }

  /** One fewer unauthenticated connection from `address`. */
  release(address: string): void {
    const n = (this.unauthenticated.get(address) ?? 1) - 1;
    if (n > 0) this.unauthenticated.set(address, n);
    else this.unauthenticated.delete(address);
  }

  /** Counts a refusal; says so in the log at most once a minute. */
  private count(kind: 'total' | 'address' | 'dropped'): void {
    this.refused[kind]++;
    const now = Date.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    const { total, address, dropped } = this.refused;
    this.logger.warn(
      `refused connections since the last warning: ${total} over MAX_CONNECTIONS (${this.opts.maxConnections}, ${this.open} open), ` +
        `${address} from addresses over MAX_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS (${this.opts.maxUnauthenticatedPerAddress}), ${dropped} dropped unanswered`,
    );
    this.refused.total = this.refused.address = this.refused.dropped = 0;
  }
}

/** One key per client: an IPv4 address (also when mapped into IPv6), or an IPv6 address's /64. */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const [head, tail] = address.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
