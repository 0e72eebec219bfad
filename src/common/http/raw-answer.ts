import { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { AppError } from '../errors/app-error';
import { codeForStatus, ErrorCode } from '../errors/codes';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  503: 'Service Unavailable',
};

/** How long a refused socket may stay open for its client to read the answer and close. */
const LINGER_MS = 1000;

/**
 * Answers a socket outside Express (a refused connection or upgrade, a request Node's parser
 * refused) with `{"Error": message, "Code": code}` and closes it. The client gets a moment to read the answer
 * (closing with its request unread would reset the connection and could lose the answer), then
 * the socket is destroyed whatever the client does: a refusal never keeps a descriptor.
 * `linger: false` destroys it as soon as the answer is written (Node's own parser may still be
 * reading it: a head completed later must not reach the app).
 */
export function answerRaw(
  socket: Duplex,
  status: number,
  message: string,
  headers: Record<string, string | number> = {},
  linger = true,
  code: ErrorCode = codeForStatus(status),
): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({ Error: message, Code: code });
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.on('error', () => socket.destroy());
  socket.once('end', () => socket.destroy());
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${extra}Connection: close\r\n\r\n${body}`,
    () => linger || socket.destroy(),
  );
  // Read and drop whatever else the client sends, so that closing does not reset the connection.
  if (socket instanceof Socket) socket.resume();
}

/** answerRaw with a refusal of the catalogue (its status, message, code and headers). */
export function answerRawError(socket: Duplex, err: AppError, linger = true): void {
  answerRaw(socket, err.status, err.message, err.headers, linger, err.code);
}
