import { clearedConsoleCookies, consoleSessionCookies, consoleUpgradeJwt, secondsLeft } from './console-cookie';

const jwtWithExp = (exp: number) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: '1', exp })).toString('base64url')}.c2ln`;

describe("the console's cookies", () => {
  it('hold the JWT HttpOnly, SameSite=Strict, under /api, as long as the JWT lives, beside a marker with no secret', () => {
    const jwt = jwtWithExp(Math.floor(Date.now() / 1000) + 600);
    const [session, marker] = consoleSessionCookies(jwt, false);
    expect(session).toMatch(new RegExp(`^console_session=${jwt}; Path=/api; SameSite=Strict; Max-Age=(599|600); HttpOnly$`));
    expect(marker).toBe('console_signed_in=1; Path=/; SameSite=Strict; Max-Age=2592000');
    expect(consoleSessionCookies(jwt, true).every((c) => c.endsWith('; Secure'))).toBe(true);
  });

  it('end both at sign-out', () => {
    expect(clearedConsoleCookies(false)).toEqual(['console_session=; Path=/api; SameSite=Strict; Max-Age=0; HttpOnly', 'console_signed_in=; Path=/; SameSite=Strict; Max-Age=0']);
    expect(clearedConsoleCookies(true)).toEqual([
      'console_session=; Path=/api; SameSite=Strict; Max-Age=0; HttpOnly; Secure',
      'console_signed_in=; Path=/; SameSite=Strict; Max-Age=0; Secure',
    ]);
  });

  it('read the lifetime of a JWT', () => {
    expect(secondsLeft(jwtWithExp(1_000_100), 1_000_000_000)).toBe(100);
    expect(secondsLeft(jwtWithExp(1), 1_000_000_000)).toBe(0);
    expect(secondsLeft('not-a-jwt')).toBeUndefined();
  });
});

describe('the console websocket upgrade', () => {
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
    expect(consoleUpgradeJwt({ ...same, cookie: 'console_session=bad value"' })).toBeUndefined();
  });

  it('leaves requests with their own credentials alone', () => {
    expect(consoleUpgradeJwt({ ...same, authorization: 'Bearer x.y.z' })).toBeUndefined();
    expect(consoleUpgradeJwt({ ...same, 'service-token': 't' })).toBeUndefined();
  });
});
