import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { IncomingMessage, Server } from 'node:http';
import { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { authorize } from '../identity/auth.guard';
import { AuthService } from '../identity/auth.service';
import { bearerJwt, Credential, credentialOf } from '../identity/credentials';
import { JwtKeyService } from '../identity/jwt-key.service';
import { AuthContext } from '../identity/auth.types';
import { Capability } from '../identity/capabilities';
import { mapError } from '../common/http/error-filter';
import { markAuthenticated } from '../common/http/connection-limits';
import { refusal } from '../common/errors/app-error';
import { answerRaw, answerRawError } from '../common/http/raw-answer';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { SessionEvents } from '../sessions/session-events';
import { upgradeJwt } from './ws-credentials';

/**
 * The caller's rights as they are now: the socket's credentials authenticated again and held to
 * the route's capability (a lock, logout, demotion, group removal or narrowed token applies to
 * the next frame, as it does to the next REST request). Rejects with the 401/403 error.
 */
export type CurrentAuth = () => Promise<AuthContext>;

/** A websocket endpoint: its path, what a token needs to open it, and what to do with a socket. */
export interface WsRoute {
  path: string;
  capability: Capability;
  open(ws: WebSocket, auth: AuthContext, current: CurrentAuth): void;
}

const MAX_FRAME = 1024 * 1024;
/** Open sockets are re-authenticated this often: logout, lock and revocation close them. */
const RECHECK_MS = 10_000;

/** A websocket close code for one gone idle (4000 + HTTP's 408, as 4401 and 4403 follow 401 and 403). */
export const WS_CLOSE_IDLE = 4408;

interface LiveSocket {
  /** What the upgrade authenticated with, checked again every RECHECK_MS. */
  credential: Credential;
  uid: number;
  sid?: string;
  /** The TCP socket under it: its byte counters tell whether any frame went either way (pings too). */
  socket: Socket;
  bytes: number;
  activeAt: number;
}

/**
 * One upgrade handler for every websocket path. Authenticates before the upgrade completes
 * (401/403 are plain HTTP answers, no socket is opened), then hands the socket to the route.
 * A user holds at most WS_MAX_PER_USER sockets (429 at the upgrade beyond), and a socket with no
 * frame either way for WS_IDLE_TIMEOUT_MS is closed with 4408.
 */
@Injectable()
export class WsHub implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WsHub.name);
  private readonly routes = new Map<string, WsRoute>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME, handleProtocols: (protocols) => [...protocols][0] ?? false });
  private readonly live = new Map<WebSocket, LiveSocket>();
  private readonly perUser = new Map<number, number>();
  private stopListening?: () => void;
  private recheck?: NodeJS.Timeout;
  private idleSweep?: NodeJS.Timeout;
  private server?: Server;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(req, socket, head);

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly auth: AuthService,
    private readonly jwtKeys: JwtKeyService,
    private readonly sessionEvents: SessionEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  register(route: WsRoute): void {
    this.routes.set(route.path, route);
  }

  onApplicationBootstrap(): void {
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.server.on('upgrade', this.onUpgrade);
    this.recheck = setInterval(() => void this.revalidate(), RECHECK_MS);
    this.recheck.unref();
    this.idleSweep = setInterval(() => this.closeIdle(), Math.max(25, Math.min(5000, Math.floor(this.config.wsIdleTimeoutMs / 4))));
    this.idleSweep.unref();
    // Logout, lock, password change, deletion: the sockets of ended sessions close at once.
    this.stopListening = this.sessionEvents.onEnded(({ uid, sid, except }) => {
      for (const [ws, c] of this.live) {
        if (c.uid !== uid || !c.sid) continue;
        if (sid ? c.sid === sid : c.sid !== except) ws.close(4401, 'session ended');
      }
    });
  }

  onApplicationShutdown(): void {
    this.closeAll();
  }

  /** Refuses new websockets and closes the open ones with 1001 (going away); the shutdown's first step. */
  closeAll(): void {
    clearInterval(this.recheck);
    clearInterval(this.idleSweep);
    this.stopListening?.();
    this.server?.off('upgrade', this.onUpgrade);
    for (const ws of this.live.keys()) ws.close(1001, 'server shutting down');
    this.wss.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    const route = this.routes.get(path);
    if (!route) return answerRawError(socket, refusal('ROUTE_NOT_FOUND'));
    // A subprotocol's JWT, else the web console's session cookie (same origin only).
    const { jwt, protocol } = upgradeJwt(req);
    // A user already at the cap is refused on the JWT's signature alone: a client retrying in a
    // loop costs no session lookup.
    const signed = jwt ?? bearerJwt(req.headers.authorization);
    const claimed = signed ? this.jwtKeys.verify(signed)?.uid : undefined;
    if (claimed !== undefined && this.atCap(claimed)) return this.refuseOverCap(socket);
    let credential: Credential;
    let auth: AuthContext;
    try {
      credential = credentialOf(req.headers, jwt);
      auth = await this.auth.authenticate(credential);
      authorize({ capability: route.capability }, auth);
    } catch (err) {
      const { status, message, code } = mapError(err);
      return answerRaw(socket, status, message, {}, true, code);
    }
    if (this.atCap(auth.uid)) return this.refuseOverCap(socket);
    // Answer with the subprotocol the JWT came in, as clients expect.
    if (protocol) req.headers['sec-websocket-protocol'] = protocol;
    const current: CurrentAuth = async () => {
      const now = await this.auth.authenticate(credential);
      authorize({ capability: route.capability }, now);
      return now;
    };
    // No await from the count above to here: the count cannot pass the cap.
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const tcp = socket as Socket;
      markAuthenticated(tcp);
      this.perUser.set(auth.uid, (this.perUser.get(auth.uid) ?? 0) + 1);
      this.live.set(ws, { credential, uid: auth.uid, sid: auth.sessionId, socket: tcp, bytes: tcp.bytesRead + tcp.bytesWritten, activeAt: Date.now() });
      ws.on('close', () => {
        this.live.delete(ws);
        const n = (this.perUser.get(auth.uid) ?? 1) - 1;
        if (n > 0) this.perUser.set(auth.uid, n);
        else this.perUser.delete(auth.uid);
      });
      ws.on('error', (err) => this.logger.debug?.(`websocket error: ${err.message}`));
      route.open(ws, auth, current);
    });
  }

  private atCap(uid: number): boolean {
    return (this.perUser.get(uid) ?? 0) >= this.config.wsMaxPerUser;
  }

  /** The caller proved who they are: this refusal does not count against their address's unauthenticated connections. */
  private refuseOverCap(socket: Duplex): void {
    markAuthenticated(socket as Socket);
    answerRawError(socket, refusal('TOO_MANY_WEBSOCKETS', this.config.wsMaxPerUser));
  }

  /** Closes the sockets that sent and received nothing (no frame, no ping) for WS_IDLE_TIMEOUT_MS. */
  private closeIdle(): void {
    const now = Date.now();
    const limit = this.config.wsIdleTimeoutMs;
    for (const [ws, s] of this.live) {
      const bytes = s.socket.bytesRead + s.socket.bytesWritten;
      if (bytes !== s.bytes) {
        s.bytes = bytes;
        s.activeAt = now;
      } else if (now - s.activeAt >= limit && ws.readyState === WebSocket.OPEN) {
        ws.close(WS_CLOSE_IDLE, `idle for ${Math.round(limit / 100) / 10} s`);
      }
    }
  }

  private async revalidate(): Promise<void> {
    for (const [ws, creds] of this.live) {
      try {
        await this.auth.authenticate(creds.credential);
      } catch {
        ws.close(4401, 'session ended');
      }
    }
  }
}

/** Sends a JSON frame if the socket is still open. */
export function sendJson(ws: WebSocket, value: unknown): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(value));
}
