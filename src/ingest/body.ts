/** Reading bodies of the self-parsed ingest routes: bounded size, optional gzip (bounded output). */
import { Request } from 'express';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { refusal } from '../common/errors/app-error';

const gunzip = promisify(zlib.gunzip);

/** Reads the whole request body; 413 as soon as it exceeds `limit` bytes (named by `setting`). */
export function readRawBody(req: Request, limit: number, setting?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(refusal('BODY_TOO_LARGE', limit, setting));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        req.resume();
        reject(refusal('BODY_TOO_LARGE', limit, setting));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => failed || resolve(Buffer.concat(chunks)));
    req.on('error', (err) => failed || ((failed = true), reject(refusal('REQUEST_ABORTED', err.message))));
  });
}

/** The body, decompressed when `Content-Encoding: gzip`; the decompressed size is bounded too. */
export async function readBody(req: Request, limit: number, setting?: string): Promise<Buffer> {
  const raw = await readRawBody(req, limit, setting);
  const enc = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (enc === 'identity' || enc === '') return raw;
  if (enc !== 'gzip' && enc !== 'x-gzip') throw refusal('UNSUPPORTED_CONTENT_ENCODING', enc);
  try {
    return await gunzip(raw, { maxOutputLength: limit });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw refusal('DECOMPRESSED_BODY_TOO_LARGE', limit, setting);
    }
    throw refusal('INVALID_GZIP');
  }
}

/** The caller's address without the IPv4-mapped prefix. */
export function clientAddress(req: Request): string {
  const a = req.ip ?? req.socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}
