import { createHash, randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';

/**
 * API token secrets: `sst_` + base64url(32 random bytes + CRC-32 of them): 256 bits of entropy,
 * a prefix secret scanners can match, and a checksum that lets malformed or truncated
 * tokens be refused before any database lookup.
 */
export const TOKEN_PREFIX = 'sst_';
const RANDOM_BYTES = 32;
const ENCODED_LENGTH = TOKEN_PREFIX.length + Math.ceil(((RANDOM_BYTES + 4) * 4) / 3);

function crc(buf: Buffer): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(zlib.crc32(buf) >>> 0);
  return out;
}

export function generateTokenSecret(): string {
  const random = randomBytes(RANDOM_BYTES);
  return TOKEN_PREFIX + Buffer.concat([random, crc(random)]).toString('base64url');
}

/** True when the secret has our shape and a matching checksum. */
export function isWellFormedTokenSecret(secret: string): boolean {
  if (secret.length !== ENCODED_LENGTH || !secret.startsWith(TOKEN_PREFIX)) return false;
  const body = secret.slice(TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return false;
  const raw = Buffer.from(body, 'base64url');
  if (raw.length !== RANDOM_BYTES + 4) return false;
  return crc(raw.subarray(0, RANDOM_BYTES)).equals(raw.subarray(RANDOM_BYTES));
}

/** Only this digest is stored; lookups are by digest through a unique index. */
export function digestTokenSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
