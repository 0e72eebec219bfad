import { IncomingMessage } from 'node:http';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Websocket clients may send their JWT in `Sec-WebSocket-Protocol` (the product's clients do),
 * as well as in the standard `Authorization` header. The server must answer the upgrade with
 * the subprotocol it authenticated from, or clients such as `ws` abort.
 */
export function jwtFromProtocols(req: Pick<IncomingMessage, 'headers'>): string | undefined {
  const raw = req.headers['sec-websocket-protocol'];
  if (!raw) return undefined;
  return String(raw)
    .split(',')
    .map((p) => p.trim())
    .find((p) => JWT_SHAPE.test(p));
}
