/** Request parameters of /api/parse and /api/search/direct: header, URL parameter or JSON body (mixable). */
import { Request } from 'express';
import { refusal } from '../common/errors/app-error';
import { parseRfc3339 } from '../common/time/rfc3339';

export const MAX_QUERY_LENGTH = 64 * 1024;

/**
 * Header first, then URL parameter, then the JSON body: its product field (`Duration`), else
 * the header's name (`duration`), so a body may use either spelling.
 */
export function param(req: Request, name: string, bodyField: string): unknown {
  const h = req.headers[name];
  if (typeof h === 'string') return h;
  const u = req.query[name];
  if (typeof u === 'string') return u;
  const body = req.body as unknown;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>;
    return Object.hasOwn(fields, bodyField) ? fields[bodyField] : Object.hasOwn(fields, name) ? fields[name] : undefined;
  }
  return undefined;
}

export function stringParam(req: Request, name: string, bodyField: string, max = 256): string | undefined {
  const v = param(req, name, bodyField);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw refusal('FIELD_NOT_A_STRING', bodyField);
  if (v.length > max) throw refusal('FIELD_TOO_LONG', bodyField, max);
  return v;
}

export function queryParam(req: Request): string {
  const q = stringParam(req, 'query', 'SearchString', MAX_QUERY_LENGTH);
  if (q === undefined) throw refusal('QUERY_REQUIRED');
  return q;
}

const GO_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go duration (`1h`, `1h30m`, `90s`, `1.5h`) -> milliseconds, or null. */
export function parseGoDuration(text: string): number | null {
  const t = text.trim();
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(t)) return null;
  let ms = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) ms += Number(m[1]) * GO_UNITS[m[2]];
  return ms;
}

/** start+end (RFC3339) or duration (ending now); one of them is required. */
export function rangeParams(req: Request, now: Date): { start: Date; end: Date } {
  const startS = stringParam(req, 'start', 'SearchStart');
  const endS = stringParam(req, 'end', 'SearchEnd');
  const durS = stringParam(req, 'duration', 'Duration');
  if (startS !== undefined || endS !== undefined) {
    if (startS === undefined || endS === undefined) throw refusal('TIME_RANGE_INCOMPLETE');
    const s = parseRfc3339(startS);
    const e = parseRfc3339(endS);
    if (s === null) throw refusal('INVALID_TIMESTAMP', 'start');
    if (e === null) throw refusal('INVALID_TIMESTAMP', 'end');
    if (e < s) throw refusal('END_BEFORE_START');
    return { start: new Date(Math.floor(s / 1000)), end: new Date(Math.ceil(e / 1000)) };
  }
  if (durS !== undefined) {
    const ms = parseGoDuration(durS);
    if (ms === null || ms <= 0 || ms > 100 * 366 * 86_400_000) throw refusal('INVALID_DURATION');
    return { start: new Date(now.getTime() - ms), end: now };
  }
  throw refusal('TIME_RANGE_REQUIRED');
}
