import { createHash, randomBytes } from 'node:crypto';
import { Server } from 'node:http';
import request from 'supertest';
import { Headers } from './auth';

/** supertest parser that keeps the body as exact bytes. */
export function binaryParser(response: request.Response, cb: (err: Error | null, body: Buffer) => void): void {
  const res = response as unknown as NodeJS.ReadableStream; // supertest passes the raw IncomingMessage
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
  res.on('error', (e: Error) => cb(e, Buffer.alloc(0)));
}

/** GET returning the raw bytes in `body`. */
export const getBytes = (http: Server, url: string, headers: Headers) => request(http).get(url).set(headers).buffer(true).parse(binaryParser);

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A complete 1x1 PNG (signature, IHDR, IDAT, IEND): content sniffers parse its chunks. */
const PNG_HEADER = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6364f8ffff3f0005fe02fea7d6a4c40000000049454e44ae426082',
  'hex',
);

/** A valid PNG followed by random bytes (every byte value likely present). */
export const pngLike = (extra = 4096) => Buffer.concat([PNG_HEADER, randomBytes(extra)]);
