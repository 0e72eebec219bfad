/** Validation and conversion of ingested entries (tag names, SRC, base64, enumerated values). */
import { isIP } from 'node:net';
import { refusal } from '../common/errors/app-error';
import { SerializedEV } from '../query';
import { parseRfc3339 } from './timestamps';

const FORBIDDEN_TAG_CHARS = /[!@#$%^&*()=+<>,.:;"'{}[\]|\\\s\u0000-\u001f\u007f]/;
export const MAX_TAG_LENGTH = 64;
const MAX_EVS = 64;

/** Product rule (no `!@#$%^&*()=+<>,.:;"'{}[]|\`), plus: non-empty, <= 64 chars, no whitespace or control characters. */
export function tagNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  if (!name.length) return 'must not be empty';
  if (name.length > MAX_TAG_LENGTH) return `must be at most ${MAX_TAG_LENGTH} characters`;
  if (FORBIDDEN_TAG_CHARS.test(name)) return 'must not contain whitespace or any of !@#$%^&*()=+<>,.:;"\'{}[]|\\';
  return undefined;
}

/** Every character `tagNameProblem` refuses, and lone UTF-16 surrogates (no text encodes them). */
const UNTAGGABLE = new RegExp(`${FORBIDDEN_TAG_CHARS.source}|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`, 'g');

/**
 * A valid tag made from any non-empty name (a HEC sourcetype such as `aws:cloudtrail`): every
 * character a tag may not hold becomes `_`, and the result is cut to 64 characters.
 */
export function toTagName(name: string): string {
  const tag = name.replace(UNTAGGABLE, '_').slice(0, MAX_TAG_LENGTH);
  return /[\ud800-\udbff]$/.test(tag) ? tag.slice(0, -1) : tag;
}

export function checkTagName(name: unknown, where = 'Tag'): string {
  const p = tagNameProblem(name);
  if (p) throw refusal('INVALID_TAG_NAME', where, p);
  return name as string;
}

/** An IP address in canonical text form, or undefined for empty; 400 otherwise. */
export function checkSource(src: unknown, where = 'SRC'): string | undefined {
  if (src === undefined || src === null || src === '') return undefined;
  if (typeof src !== 'string' || !isIP(src.trim())) throw refusal('INVALID_SOURCE', where);
  const s = src.trim();
  return s.startsWith('::ffff:') && isIP(s.slice(7)) === 4 ? s.slice(7) : s;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function decodeBase64(v: unknown, where: string): Buffer {
  if (typeof v !== 'string') throw refusal('INVALID_BASE64', where);
  const buf = Buffer.from(v, 'base64');
  // Canonical input re-encodes to itself (native, fast); anything else gets the exact check.
  if (buf.toString('base64') !== v && !BASE64.test(v)) throw refusal('INVALID_BASE64', where);
  return buf;
}

export function checkTimestamp(v: unknown, where: string): number {
  const us = typeof v === 'string' ? parseRfc3339(v) : null;
  if (us === null) throw refusal('INVALID_ENTRY_TIMESTAMP', where);
  return us;
}

/** Decodes an EV `{Type, Data}` (product type codes, little endian) to a storable JSON value. */
function decodeTyped(type: number, data: Buffer, where: string): SerializedEV {
  const need = (n: number) => {
    if (data.length !== n) throw refusal('ENUMERATED_DATA_SIZE', where, type, n);
  };
  switch (type) {
    case 1:
      return { b64: data.toString('base64') };
    case 2:
      need(1);
      return data[0] !== 0;
    case 3:
      need(1);
      return data.readUInt8(0);
    case 4:
      need(1);
      return data.readInt8(0);
    case 5:
      need(2);
      return data.readInt16LE(0);
    case 6:
      need(2);
      return data.readUInt16LE(0);
    case 7:
      need(4);
      return data.readInt32LE(0);
    case 8:
      need(4);
      return data.readUInt32LE(0);
    case 9:
      need(8);
      return Number(data.readBigInt64LE(0));
    case 10:
      need(8);
      return Number(data.readBigUInt64LE(0));
    case 11:
      need(4);
      return data.readFloatLE(0);
    case 12:
      need(8);
      return data.readDoubleLE(0);
    case 13:
      return data.toString('utf8');
    default:
      throw refusal('ENUMERATED_TYPE_UNSUPPORTED', where, type);
  }
}

/** `Enumerated: [{Name, ValueStr?, Value?: {Type, Data}}]` -> EV pairs. */
export function decodeEnumerated(v: unknown, where: string): Array<[string, SerializedEV]> | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) throw refusal('ENUMERATED_NOT_AN_ARRAY', where);
  if (v.length > MAX_EVS) throw refusal('TOO_MANY_ENUMERATED', where, MAX_EVS);
  return v.map((ev: unknown, i) => {
    const w = `${where}.Enumerated[${i}]`;
    if (typeof ev !== 'object' || ev === null) throw refusal('NOT_AN_OBJECT', w);
    const { Name, ValueStr, Value } = ev as { Name?: unknown; ValueStr?: unknown; Value?: unknown };
    if (typeof Name !== 'string' || !Name.length || Name.length > 128) throw refusal('ENUMERATED_NAME_INVALID', w);
    if (Value !== undefined && Value !== null) {
      const { Type, Data } = Value as { Type?: unknown; Data?: unknown };
      if (typeof Type !== 'number' || !Number.isInteger(Type)) throw refusal('ENUMERATED_TYPE_INVALID', w);
      return [Name, decodeTyped(Type, decodeBase64(Data ?? '', `${w}.Value.Data`), w)];
    }
    if (typeof ValueStr !== 'string') throw refusal('ENUMERATED_VALUE_REQUIRED', w);
    return [Name, ValueStr];
  });
}

/** Splits a buffer into lines (LF or CRLF), dropping empty lines. */
export function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (;;) {
    const nl = buf.indexOf(10, start);
    const end = nl < 0 ? buf.length : nl;
    let line = buf.subarray(start, end);
    if (line.length && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
    if (line.length) out.push(line);
    if (nl < 0) break;
    start = nl + 1;
  }
  return out;
}
