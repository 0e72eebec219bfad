import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { api, ApiError, apiRaw, apiResponse, CONSOLE_HEADER, onSessionEnded, sessionEnded } from './client';

type Call = { url: string; init: RequestInit };

/** fetch answering `res` (or failing), recording the calls. */
function stubFetch(answer: () => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  global.fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer();
  }) as typeof fetch;
  return calls;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

describe('the console’s one fetch wrapper', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('apiRaw sends the console header with the cookie and hands back an ok Response unread', async () => {
    const calls = stubFetch(() => new Response(new Uint8Array([0, 255, 1]), { status: 200, headers: { 'Content-Disposition': 'attachment; filename="a.bin"' } }));
    const res = await apiRaw('/api/files/x', { query: { admin: true } });
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(new Uint8Array([0, 255, 1]));
    expect(calls[0].url).toBe('/api/files/x?admin=true');
    expect(calls[0].init.credentials).toBe('same-origin');
    expect((calls[0].init.headers as Record<string, string>)[CONSOLE_HEADER]).toBe('1');
    expect((calls[0].init.headers as Record<string, string>).Accept).toBeUndefined();
  });

  it("apiRaw rejects with the service's Error text and Retry-After", async () => {
    stubFetch(() => json(429, { Error: 'Too many requests' }, { 'Retry-After': '7' }));
    const err = (await apiRaw('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.status, err.message, err.retryAfter]).toEqual([429, 'Too many requests', 7]);
  });

  it('a 401 to apiRaw or api() tells the console the session has ended, unless it is expected', async () => {
    const ended = jest.fn();
    const off = onSessionEnded(ended);
    try {
      stubFetch(() => json(401, { Error: 'Session expired' }));
      await expect(apiRaw('/api/files/x')).rejects.toThrow('Session expired');
      expect(ended).toHaveBeenCalledTimes(1);
      await expect(api('/api/x')).rejects.toThrow('Session expired');
      expect(ended).toHaveBeenCalledTimes(2);
      await expect(api('/api/login', { method: 'POST', json: {}, expect401: true })).rejects.toThrow('Session expired');
      expect(ended).toHaveBeenCalledTimes(2);
      sessionEnded();
      expect(ended).toHaveBeenCalledTimes(3);
    } finally {
      off();
    }
    sessionEnded();
    expect(ended).toHaveBeenCalledTimes(3);
  });

  it('says so in words when the service cannot be reached, and lets aborts through', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRaw('/api/x')).rejects.toMatchObject({ status: 0, message: 'The service cannot be reached. Check your connection and try again.' });
    stubFetch(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    await expect(api('/api/x')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('api() and apiResponse() still send JSON with Accept and give the parsed body and headers', async () => {
    const calls = stubFetch(() => json(200, { ok: 1 }, { ETag: '"3"' }));
    const res = await apiResponse<{ ok: number }>('/api/d', { method: 'PUT', json: { a: 1 }, headers: { 'If-Match': '"2"' } });
    expect(res.body).toEqual({ ok: 1 });
    expect(res.headers.get('ETag')).toBe('"3"');
    expect(calls[0].init.body).toBe('{"a":1}');
    expect(calls[0].init.headers).toEqual({ 'If-Match': '"2"', Accept: 'application/json', [CONSOLE_HEADER]: '1', 'Content-Type': 'application/json' });
    stubFetch(() => new Response(null, { status: 204 }));
    expect(await api('/api/d', { method: 'DELETE' })).toBeUndefined();
  });
});
