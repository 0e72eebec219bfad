import { Agent, request as httpRequest, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';

/** The port a listening server is on. */
export const portOf = (server: Server): number => (server.address() as AddressInfo).port;

/** Connections the server holds open now (admitted, refused and lingering alike). */
export const openConnections = (server: Server): Promise<number> => new Promise((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

/** Polls `cond` until it holds; fails with `what` after `ms`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A raw TCP client: what it received, and whether the server closed it. */
export interface RawConn {
  socket: Socket;
  received(): string;
  /** The server closed its side (this client keeps its own open, as one that never hangs up does). */
  ended: Promise<void>;
  hasEnded(): boolean;
  /** The HTTP answer it received, once complete (Content-Length long). */
  response(ms?: number): Promise<RawResponse>;
}

/**
 * Connects from `localAddress` (any 127.x.y.z reaches a server on 127.0.0.1: one client address
 * each) and keeps its half of the connection open until told (`allowHalfOpen`), as a client that
 * never hangs up does.
 */
export function rawConnect(port: number, localAddress = '127.0.0.1'): Promise<RawConn> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress, allowHalfOpen: true });
    let text = '';
    let ended = false;
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('error', () => undefined);
    const conn: RawConn = {
      socket,
      received: () => text,
      ended: new Promise<void>((r) => {
        socket.once('end', () => r());
        socket.once('close', () => r());
      }).then(() => void (ended = true)),
      hasEnded: () => ended,
      async response(ms = 10_000) {
        await waitFor(() => parseResponse(text) !== undefined, 'a complete HTTP response', ms);
        return parseResponse(text)!;
      },
    };
    socket.once('connect', () => resolve(conn));
    socket.once('error', reject);
  });
}

function parseResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  const length = Number(headers['content-length'] ?? 0);
  const raw = text.slice(end + 4);
  if (Buffer.byteLength(raw) < length) return undefined;
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    /* not JSON */
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** A GET from `localAddress`, through `agent` (keep-alive agents keep their connections). */
export function getFrom(port: number, path: string, opts: { localAddress?: string; headers?: Record<string, string>; agent?: Agent } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, localAddress: opts.localAddress, headers: opts.headers, agent: opts.agent }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
