import { Agent } from 'node:http';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin } from '../setup/auth';
import { connectionErrors, errorBody } from '../setup/errors';
import { getFrom, openConnections, portOf, RawConn, rawConnect, waitFor } from '../setup/raw-http';
import { listen } from '../setup/ws';

/**
 * Issue 32 item 5: descriptors are shared by every client. Request heads and requests have a
 * time limit, connections not yet authenticated a per-address limit, all connections a total
 * limit; a refusal is an answer (`{"Error"}`, Retry-After) and never keeps its descriptor.
 */
const held: RawConn[] = [];
afterEach(() => {
  for (const c of held.splice(0)) c.socket.destroy();
});

describe('request heads and refused upgrades', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ httpHeadersTimeoutMs: 300, httpRequestTimeoutMs: 600 });
    await listen(t);
    port = portOf(t.http);
  });
  afterAll(() => t.close());

  it('answers a request head not in within HTTP_HEADERS_TIMEOUT_MS with 408 and closes the connection, also for a client that never hangs up', async () => {
    await waitFor(async () => (await openConnections(t.http)) === 0, 'earlier connections to close');
    const silent = await rawConnect(port);
    const partial = await rawConnect(port);
    held.push(silent, partial);
    partial.socket.write('GET /api/test HTTP/1.1\r\nHost: x\r\n');
    for (const c of [silent, partial]) {
      expect(await c.response(5000)).toEqual({
        status: 408,
        headers: expect.objectContaining({ connection: 'close' }),
        body: errorBody(connectionErrors.requestTimeout, 'REQUEST_NOT_RECEIVED_IN_TIME'),
      });
      await c.ended;
    }
    await waitFor(async () => (await openConnections(t.http)) === 0, 'the server to let both connections go');
  });

  it('answers a body not in within HTTP_REQUEST_TIMEOUT_MS with 408', async () => {
    const admin = await asAdmin(t.http);
    const slow = await rawConnect(port);
    held.push(slow);
    slow.socket.write(`PUT /api/ingest/json HTTP/1.1\r\nHost: x\r\nAuthorization: ${admin.Authorization}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`);
    expect(await slow.response(5000)).toEqual({ status: 408, headers: expect.any(Object), body: errorBody(connectionErrors.requestTimeout, 'REQUEST_NOT_RECEIVED_IN_TIME') });
    await slow.ended;
  });

  it('closes a refused websocket upgrade even when its client keeps the connection open', async () => {
    await waitFor(async () => (await openConnections(t.http)) === 0, 'earlier connections to close');
    const c = await rawConnect(port);
    held.push(c);
    c.socket.write(
      'GET /api/ws/stats HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect((await c.response()).status).toBe(401);
    await c.ended;
    await waitFor(async () => (await openConnections(t.http)) === 0, 'the server to let the refused connection go');
  });
});

describe('connections from one address that have not signed in', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ maxUnauthenticatedConnectionsPerAddress: 5, httpHeadersTimeoutMs: 2000 });
    await listen(t);
    port = portOf(t.http);
  });
  afterAll(() => t.close());

  it('past MAX_UNAUTHENTICATED_CONNECTIONS_PER_ADDRESS get 429 with Retry-After, unread; other addresses are served', async () => {
    for (let i = 0; i < 5; i++) held.push(await rawConnect(port, '127.0.0.3'));
    const refused = await rawConnect(port, '127.0.0.3');
    held.push(refused);
    refused.socket.write('GET /api/test HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await refused.response()).toEqual({
      status: 429,
      headers: expect.objectContaining({ 'retry-after': '2', connection: 'close' }),
      body: errorBody(connectionErrors.tooManyFromAddress(5), 'TOO_MANY_UNAUTHENTICATED_CONNECTIONS'),
    });
    await refused.ended;
    expect((await getFrom(port, '/api/test', { localAddress: '127.0.0.4' })).status).toBe(200);
    // Once the held ones are gone, the address is served again.
    for (const c of held.splice(0)) c.socket.destroy();
    await waitFor(async () => (await getFrom(port, '/api/test', { localAddress: '127.0.0.3' }).catch(() => ({ status: 0 }))).status === 200, 'the address to be served again');
  });

  it('does not count connections that carried an authenticated request', async () => {
    const admin = await asAdmin(t.http);
    const agent = new Agent({ keepAlive: true, maxSockets: 5 });
    try {
      const whoami = () => getFrom(port, '/api/info/whoami', { localAddress: '127.0.0.5', headers: admin, agent });
      expect((await Promise.all([whoami(), whoami(), whoami(), whoami(), whoami()])).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(5);
      // Five kept-alive, signed-in connections, and five more that are not: all admitted.
      for (let i = 0; i < 5; i++) held.push(await rawConnect(port, '127.0.0.5'));
      for (const c of held) c.socket.write('GET /api/test HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect((await Promise.all(held.map((c) => c.response()))).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      agent.destroy();
    }
  });
});

describe('connections in all', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ maxConnections: 6 });
    await listen(t);
    port = portOf(t.http);
  });
  afterAll(() => t.close());

  it('past MAX_CONNECTIONS get 503 with Retry-After, unread, and are let go; a place frees when one closes', async () => {
    for (let i = 0; i < 6; i++) held.push(await rawConnect(port, `127.0.1.${i + 1}`));
    const refused = await rawConnect(port, '127.0.1.100');
    held.push(refused);
    expect(await refused.response()).toEqual({
      status: 503,
      headers: expect.objectContaining({ 'retry-after': '10', connection: 'close' }),
      body: errorBody(connectionErrors.tooManyOpen, 'TOO_MANY_CONNECTIONS'),
    });
    await refused.ended;
    held.shift()!.socket.destroy();
    await waitFor(async () => (await getFrom(port, '/api/test').catch(() => ({ status: 0 }))).status === 200, 'a place after one closed');
  });
});

describe('websocket upgrades refused for the per-user cap', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ wsMaxPerUser: 1, maxUnauthenticatedConnectionsPerAddress: 3 });
    await listen(t);
    port = portOf(t.http);
  });
  afterAll(() => t.close());

  it("do not use up their address's unauthenticated connections while they close: the caller proved who they are", async () => {
    const jwt = (await asAdmin(t.http)).Authorization.slice('Bearer '.length);
    const upgrade = `GET /api/ws/stats HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: ${jwt}\r\n\r\n`;
    const open = await rawConnect(port, '127.0.0.6');
    held.push(open);
    open.socket.write(upgrade);
    expect((await open.response()).status).toBe(101);
    // Five more from the same address, refused for the cap; their client keeps them open.
    for (let i = 0; i < 5; i++) {
      const c = await rawConnect(port, '127.0.0.6');
      held.push(c);
      c.socket.write(upgrade);
      expect((await c.response()).status).toBe(429);
    }
    expect((await getFrom(port, '/api/test', { localAddress: '127.0.0.6' })).status).toBe(200);
  });
});
