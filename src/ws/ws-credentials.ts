import { IncomingMessage } from 'node:http';
import { consoleUpgradeJwt } from '../identity/console-cookie';
import { isJwtShaped } from '../identity/credentials';

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
    .find((p) => isJwtShaped(p));
}

/**
 * The JWT an upgrade carries outside its `Authorization` header: a subprotocol (`protocol`, to be
 * answered with; not looked for when `Authorization` is sent), else the web console's session
 * cookie (same origin only, console-cookie.ts). `credentialOf(headers, jwt)` then picks the
 * upgrade's one credential as for any request.
 */
export function upgradeJwt(req: Pick<IncomingMessage, 'headers'>): { jwt?: string; protocol?: string } {
  const protocol = req.headers.authorization ? undefined : jwtFromProtocols(req);
  return { jwt: protocol ?? consoleUpgradeJwt(req.headers), protocol };
}
