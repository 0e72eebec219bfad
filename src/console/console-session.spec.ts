import express from 'express';
import request from 'supertest';
import { consoleSession, consoleUpgradeJwt, secondsLeft } from './console-session';

const jwtWithExp = (exp: number) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: '1', exp })).toString('base64url')}.c2ln`;

/** The cookie bridge in front of stand-in routes that echo what a handler of the service would see. */
function app() {
  const a = express();
  a.use(consoleSession());
  a.post('/api/login', (_req, res) => {
    res.json({ LoginStatus: true, JWT: jwtWithExp(Math.floor(Date.now() / 1000) + 600) });
  });
  a.put('/api/logout', (_req, res) => {
    res.json(null);
  });
  a.get(/.*/, (req, res) => {
    res.json({ auth: req.headers.authorization ?? null });
  });
  return a;
}

describe('console session cookie', () => {
  it('moves the JWT of a console sign-in into an HttpOnly SameSite=Strict cookie', async () => {
    const res = await request(app()).post('/api/login').set('X-Console', '1').expect(200);
    expect(res.body).toEqual({ LoginStatus: true });
    const cookies = res.headers['set-cookie'] as unknown as string[];
    expect(cookies[0]).toMatch(/^console_session=eyJ[\w.-]+; Path=\/api; SameSite=Strict; Max-Age=(599|600); HttpOnly$/);
    expect(cookies[1]).toBe('console_signed_in=1; Path=/; SameSite=Strict; Max-Age=2592000');
  });

  it('leaves other clients alone: their sign-in answers with the JWT and sets no cookie', async () => {
    const res = await request(app()).post('/api/login').expect(200);
    expect(res.body).toEqual({ LoginStatus: true, JWT: expect.stringMatching(/^eyJ/) });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('turns the cookie into a bearer header only for console requests and same-origin downloads', async () => {
    const cookie = 'console_session=eyJa.b.c; other=1';
    const get = (path: string, headers: Record<string, string>) => request(app()).get(path).set(headers);
    expect((await get('/api/info/whoami', { Cookie: cookie, 'X-Console': '1' })).body).toEqual({ auth: 'Bearer eyJa.b.c' });
    expect((await get('/api/info/whoami', { Cookie: cookie })).body).toEqual({ auth: null });
    expect((await get('/api/info/whoami', { Cookie: cookie, 'X-Console': '1', Authorization: 'Bearer mine' })).body).toEqual({ auth: 'Bearer mine' });
    expect((await get('/api/info/whoami', { Cookie: cookie, 'X-Console': '1', 'Service-Token': 'sst_x' })).body).toEqual({ auth: null });
    expect((await get('/api/searchctrl/123/download/csv', { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' })).body).toEqual({ auth: 'Bearer eyJa.b.c' });
    expect((await get('/api/searchctrl/123/download/csv', { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' })).body).toEqual({ auth: null });
    expect((await get('/api/searchctrl/123', { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' })).body).toEqual({ auth: null });
    expect((await get('/api/info/whoami', { Cookie: 'console_session=bad value"', 'X-Console': '1' })).body).toEqual({ auth: null });
  });

  it('clears both cookies when the console signs out', async () => {
    const res = await request(app()).put('/api/logout').set('X-Console', '1').expect(200);
    expect(res.headers['set-cookie']).toEqual(['console_session=; Path=/api; SameSite=Strict; Max-Age=0; HttpOnly', 'console_signed_in=; Path=/; SameSite=Strict; Max-Age=0']);
  });

  it('reads the lifetime of a JWT', () => {
    expect(secondsLeft(jwtWithExp(1_000_100), 1_000_000_000)).toBe(100);
    expect(secondsLeft('not-a-jwt')).toBeUndefined();
  });
});

describe('console websocket upgrade', () => {
  const cookie = 'console_signed_in=1; console_session=aaa.bbb.ccc';
  const same = { host: 'console.example:3000', origin: 'https://console.example:3000', cookie };

  it('takes the session cookie for a same-origin handshake only', () => {
    expect(consoleUpgradeJwt(same)).toBe('aaa.bbb.ccc');
    expect(consoleUpgradeJwt({ ...same, 'sec-fetch-site': 'same-origin' })).toBe('aaa.bbb.ccc');
    expect(consoleUpgradeJwt({ ...same, origin: 'https://evil.example' })).toBeUndefined();
    expect(consoleUpgradeJwt({ ...same, origin: 'https://console.example:4000' })).toBeUndefined();
    expect(consoleUpgradeJwt({ ...same, 'sec-fetch-site': 'same-site' })).toBeUndefined();
    expect(consoleUpgradeJwt({ ...same, origin: 'null' })).toBeUndefined();
    expect(consoleUpgradeJwt({ host: same.host, cookie })).toBeUndefined();
  });

  it('leaves requests with their own credentials alone', () => {
    expect(consoleUpgradeJwt({ ...same, authorization: 'Bearer x.y.z' })).toBeUndefined();
    expect(consoleUpgradeJwt({ ...same, 'service-token': 't' })).toBeUndefined();
  });
});
