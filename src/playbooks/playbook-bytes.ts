import { refusal } from '../common/errors/app-error';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The bytes of a base64 field as the product's Go server reads a `[]byte` (encoding/json with
 * base64.StdEncoding: the standard alphabet, padded; line breaks ignored). Anything else is a
 * 400 naming the field, and more than `limit` decoded bytes is a 413 naming the limit and its
 * setting (or "a fixed limit"), checked before anything is decoded.
 */
export function decodeBase64Field(value: string, field: 'Body' | 'Metadata', limit: number, setting?: string): Buffer {
  const s = value.includes('\n') || value.includes('\r') ? value.replace(/[\r\n]/g, '') : value;
  if (s.length % 4 !== 0 || !BASE64.test(s)) throw refusal('PLAYBOOK_FIELD_NOT_BASE64', field);
  const size = (s.length / 4) * 3 - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);
  if (size > limit) throw refusal('PLAYBOOK_TOO_LARGE', field, limit, setting);
  return Buffer.from(s, 'base64');
}
