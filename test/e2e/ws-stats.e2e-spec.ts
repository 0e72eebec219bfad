import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, TestUser } from '../setup/auth';
import { searchSocketErrors } from '../setup/errors';
import { listen, openWs } from '../setup/ws';
import { StatsService } from '../../src/stats/stats.service';

describe('websocket authentication and /api/ws/stats', () => {
  let t: TestApp;
  let base: string;
  let user: TestUser;
  let jwt: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t);
    user = await createUser(t.http, await asAdmin(t.http));
    jwt = user.headers.Authorization.slice('Bearer '.length);
  });
  afterAll(() => t.close());

  it('accepts the JWT in Sec-WebSocket-Protocol and answers with that subprotocol', async () => {
    const { ws, next } = await openWs(`${base}/api/ws/stats`, [jwt]);
    expect(ws.protocol).toBe(jwt);
    ws.send(JSON.stringify({ Subs: ['ping', 'sysDesc'] }));
    expect(await next()).toEqual({ Resp: 'ACK' });
    const first = await next();
    expect(first.type).toBe('sysDesc');
    expect((first.data as Record<string, unknown>).webserver).toMatchObject({ CPUCount: expect.any(Number) });
    const ping = await next();
    expect(ping).toEqual({ type: 'ping', data: { States: expect.objectContaining({ webserver: 'OK' }) } });
    ws.close();
  });

  it('accepts the standard Authorization header', async () => {
    const { ws, next } = await openWs(`${base}/api/ws/stats`, [], user.headers);
    // No subprotocol was offered, so none is chosen; the socket serves subscriptions as with one.
    expect(ws.protocol).toBe('');
    ws.send(JSON.stringify({ Subs: ['ping'] }));
    expect(await next()).toEqual({ Resp: 'ACK' });
    expect(await next()).toEqual({ type: 'ping', data: { States: expect.objectContaining({ webserver: 'OK' }) } });
    ws.close();
  });

  it("accepts the console's session cookie from the same origin only (browsers cannot add X-Console to a handshake)", async () => {
    const host = new URL(base).host;
    const cookie = `console_signed_in=1; console_session=${jwt}`;
    const { ws, next } = await openWs(`${base}/api/ws/stats`, [], { Cookie: cookie, Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' });
    expect(ws.protocol).toBe('');
    ws.send(JSON.stringify({ Subs: ['ping'] }));
    expect(await next()).toEqual({ Resp: 'ACK' });
    ws.close();
    // Another site's page, a forged Sec-Fetch-Site, or no Origin at all: the cookie counts for nothing.
    for (const headers of [{ Cookie: cookie, Origin: 'http://evil.example' }, { Cookie: cookie, Origin: `http://${host}`, 'Sec-Fetch-Site': 'cross-site' }, { Cookie: cookie }]) {
      await expect(openWs(`${base}/api/ws/stats`, [], headers)).rejects.toMatchObject({ status: 401 });
    }
  });

  it('refuses a missing, bad or expired JWT with 401 before the upgrade', async () => {
    await expect(openWs(`${base}/api/ws/stats`)).rejects.toMatchObject({ status: 401 });
    await expect(openWs(`${base}/api/ws/stats`, ['aaa.bbb.ccc'])).rejects.toMatchObject({ status: 401 });
    const [h, p] = jwt.split('.');
    await expect(openWs(`${base}/api/ws/stats`, [`${h}.${p}.forgedsignature`])).rejects.toMatchObject({ status: 401 });
  });

  it('answers an unknown websocket path with 404 and a bad subscription with an error frame', async () => {
    await expect(openWs(`${base}/api/ws/nothing`, [jwt])).rejects.toMatchObject({ status: 404 });
    const { ws, next } = await openWs(`${base}/api/ws/stats`, [jwt]);
    ws.send('not json');
    expect(await next()).toEqual({ Resp: 'ERROR', Error: searchSocketErrors.malformedJson });
    ws.send(JSON.stringify({ Subs: ['bogus'] }));
    expect(await next()).toEqual({ Resp: 'ERROR', Error: 'Subs must name some of ping, sysDesc, idxStats, igstStats' });
    ws.close();
  });

  it('shares one idxStats computation between every subscriber, never overlapping (a socket storm costs one run per period)', async () => {
    const stats = t.app.get(StatsService) as unknown as { idxStats(): Promise<unknown> };
    const spy = jest.spyOn(stats, 'idxStats');
    const sockets = await Promise.all(Array.from({ length: 40 }, () => openWs(`${base}/api/ws/stats`, [jwt])));
    for (const s of sockets) s.ws.send(JSON.stringify({ Subs: ['idxStats', 'ping'] }));
    const started = Date.now();
    // Every socket gets its first idxStats push, and then at least one more.
    for (const s of sockets) {
      expect(await s.next()).toEqual({ Resp: 'ACK' });
      const seen = new Set<string>();
      while (!seen.has('idxStats')) seen.add(String((await s.next()).type));
    }
    await new Promise((r) => setTimeout(r, 4500));
    const elapsed = Date.now() - started;
    for (const s of sockets) s.ws.close();
    // 40 sockets pushing every 2 s for ~5 s would be ~120 runs; shared, it is one per 1.5 s at most.
    expect(spy.mock.calls.length).toBeGreaterThan(0);
    expect(spy.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1500) + 1);
    spy.mockRestore();
  });
});
