import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { asAdmin, createUser, TestUser } from '../setup/auth';

/**
 * A client that loops refused requests (ignoring Retry-After) is slowed down: past
 * REFUSAL_BRAKE_MAX refusals in 10 s, its credential's requests are held and refused unread.
 */
describe('refusal brake (e2e)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const DELAY_MS = 300;
  const junk = (h: Record<string, string>) => request(t.http).post('/api/searchctrl/import').set(h).attach('file', Buffer.from('not an archive'), 'junk.tar.gz');

  beforeAll(async () => {
    t = await createTestApp({ importMaxPerMinute: 1, refusalBrakeMax: 3, refusalBrakeDelayMs: DELAY_MS });
    const admin = await asAdmin(t.http);
    alice = await createUser(t.http, admin);
    bob = await createUser(t.http, admin);
  });
  afterAll(() => t.close());

  it('holds and refuses the requests of a credential that keeps getting 429, and no one else', async () => {
    expect((await junk(alice.headers)).status).toBe(400); // the one import of the minute
    for (let i = 0; i < 3; i++) expect((await junk(alice.headers)).status).toBe(429); // the budget's refusals
    // Braked now: even a cheap request of this credential waits, then gets 429 unread.
    const started = Date.now();
    const braked = await request(t.http).get('/api/info/whoami').set(alice.headers);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY_MS - 20);
    expect({ status: braked.status, error: braked.body.Error, close: braked.headers.connection }).toEqual({
      status: 429,
      error: expect.stringContaining('Too many refused requests with this credential'),
      close: 'close',
    });
    expect(Number(braked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(braked.headers['retry-after'])).toBeLessThanOrEqual(10);
    const bomb = await junk(alice.headers);
    expect(bomb.status).toBe(429);
    // A second session of the same user shares the brake from its first refusal.
    const again = await request(t.http).post('/api/login').send({ User: alice.name, Pass: alice.password }).expect(200);
    const second = { Authorization: `Bearer ${again.body.JWT}` };
    await request(t.http).get('/api/info/whoami').set(second).expect(200);
    expect((await junk(second)).status).toBe(429);
    expect((await request(t.http).get('/api/info/whoami').set(second)).status).toBe(429);
    // Another user, and the anonymous sign-in page, are untouched.
    await request(t.http).get('/api/info/whoami').set(bob.headers).expect(200);
    await request(t.http).get('/api/test').expect(200);
  });
});
