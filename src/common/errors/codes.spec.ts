import { AppError, refusal } from './app-error';
import { codeForStatus, ERROR_CODES, ErrorCode, messageOf } from './codes';

const entries = Object.entries(ERROR_CODES) as Array<[ErrorCode, { status: number; message: string | ((...a: unknown[]) => string) }]>;

/** A message with placeholder details (numeric text reads as a number or a word). */
const sample = (m: string | ((...a: unknown[]) => string)): unknown => (typeof m === 'string' ? m : m(...Array.from({ length: Math.max(m.length, 1) }, () => '7')));

describe('the error catalogue', () => {
  it('names every code once, in upper snake case', () => {
    const codes = entries.map(([c]) => c);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.filter((c) => !/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(c))).toEqual([]);
  });

  it('gives every code an error status and a non-empty message', () => {
    for (const [code, { status, message }] of entries) {
      expect({ code, status: status >= 400 && status < 600 }).toEqual({ code, status: true });
      const text = sample(message);
      expect({ code, message: typeof text === 'string' && text.trim().length > 0 }).toEqual({ code, message: true });
    }
  });

  it('writes out each fixed message under one code only (the generic fallbacks aside)', () => {
    const generic = new Set([codeForStatus(404)]);
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [code, { status, message }] of entries) {
      if (typeof message !== 'string' || generic.has(code)) continue;
      const key = `${status} ${message}`;
      if (seen.has(key)) twice.push(`${seen.get(key)} and ${code}`);
      seen.set(key, code);
    }
    expect(twice).toEqual([]);
  });

  it('builds refusals with the status, message and code of the catalogue', () => {
    const e = refusal('USER_ALREADY_EXISTS', 'ann');
    expect([e instanceof AppError, e.status, e.message, e.code]).toEqual([true, 409, 'User "ann" already exists', 'USER_ALREADY_EXISTS']);
    expect(messageOf('USER_NOT_FOUND')).toBe('User not found');
    expect(refusal('TOO_MANY_SEARCHES', 5).retryAfter(2.2).headers).toEqual({ 'Retry-After': '3' });
  });

  it('gives an error built the old way the generic code of its status', () => {
    expect([400, 401, 403, 404, 409, 413, 429, 503].map((s) => new AppError(s, 'x').code)).toEqual([
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'FORBIDDEN',
      'NOT_FOUND',
      'CONFLICT',
      'PAYLOAD_TOO_LARGE',
      'TOO_MANY_REQUESTS',
      'SERVICE_UNAVAILABLE',
    ]);
    expect([codeForStatus(418), codeForStatus(502)]).toEqual(['BAD_REQUEST', 'INTERNAL_ERROR']);
    for (const code of ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT'] as const) expect(codeForStatus(ERROR_CODES[code].status)).toBe(code);
  });
});
