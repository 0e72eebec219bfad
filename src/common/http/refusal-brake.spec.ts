import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { credentialKey, RefusalBrake } from './refusal-brake';

const req = (headers: Record<string, string>, url = '/api/x') => ({ headers, url }) as unknown as IncomingMessage;

describe('RefusalBrake', () => {
  it('brakes a credential after `max` refusals in the window, and only that one, until the window ends', () => {
    let now = 1_000_000;
    const brake = new RefusalBrake({ max: 3, delayMs: 0 }, 10_000, () => now);
    for (let i = 0; i < 2; i++) brake.refused('a');
    expect(brake.brakedFor('a')).toBe(0);
    brake.refused('a');
    expect(brake.brakedFor('a')).toBe(10);
    expect(brake.brakedFor('b')).toBe(0);
    now += 9_000;
    expect(brake.brakedFor('a')).toBe(1);
    now += 1_000;
    expect(brake.brakedFor('a')).toBe(0);
  });

  it("counts a user's refusals together, whichever credential they came with", () => {
    const brake = new RefusalBrake({ max: 3, delayMs: 0 }, 10_000, () => 0);
    brake.refused('token-1', 7);
    brake.refused('token-2', 7);
    expect(brake.brakedFor('token-3')).toBe(0); // never refused: not yet known as user 7's
    brake.refused('token-3', 7);
    for (const t of ['token-1', 'token-2', 'token-3']) expect(brake.brakedFor(t)).toBe(10);
    expect(brake.brakedFor('forged')).toBe(0);
  });

  it('keys requests by the credential they present, wherever it is, and ignores requests without one', () => {
    expect(credentialKey(req({}))).toBeUndefined();
    const bearer = credentialKey(req({ authorization: 'Bearer abc' }));
    expect(bearer).toEqual(credentialKey(req({ authorization: 'Bearer abc' })));
    expect(bearer).not.toEqual(credentialKey(req({ authorization: 'Bearer abd' })));
    expect(credentialKey(req({ 'service-token': 't1' }))).not.toEqual(credentialKey(req({ 'service-token': 't2' })));
    expect(credentialKey(req({ cookie: 'console_session=s' }))).toBeDefined();
    const hec = credentialKey(req({}, '/services/collector?token=secret'));
    expect(hec).toBeDefined();
    expect(hec).not.toContain('secret');
  });

  describe('middleware', () => {
    /** One request through the middleware: 'passed' (next called) or 'held' (the brake's 429), answered `status`. */
    function send(brake: RefusalBrake, authorization: string, status: number): 'passed' | 'held' {
      const res = Object.assign(new EventEmitter(), { statusCode: 0, writeHead: jest.fn(), end: jest.fn() });
      const request = Object.assign(req({ authorization }), { pause: jest.fn() });
      let passed = false;
      brake.middleware(request, res as unknown as ServerResponse, () => (passed = true));
      if (!passed) {
        res.emit('close'); // the client gives up: the brake's timer goes
        return 'held';
      }
      res.statusCode = status;
      res.emit('finish');
      return 'passed';
    }

    it('holds a credential once its refusals reach `max`, and every credential braked later, for as long as each is braked', () => {
      let now = 1_000_000;
      const brake = new RefusalBrake({ max: 2, delayMs: 60_000 }, 10_000, () => now);
      expect(send(brake, 'Bearer a', 200)).toBe('passed');
      for (let i = 0; i < 2; i++) expect(send(brake, 'Bearer a', 429)).toBe('passed');
      expect(send(brake, 'Bearer a', 200)).toBe('held');
      expect(send(brake, 'Bearer b', 200)).toBe('passed');
      now += 8_000; // b is braked later: its window outlasts a's
      for (let i = 0; i < 2; i++) expect(send(brake, 'Bearer b', 429)).toBe('passed');
      expect(send(brake, 'Bearer b', 200)).toBe('held');
      now += 3_000; // a's window is over, b's is not
      expect(send(brake, 'Bearer a', 200)).toBe('passed');
      expect(send(brake, 'Bearer b', 200)).toBe('held');
      now += 8_000;
      expect(send(brake, 'Bearer b', 200)).toBe('passed');
    });

    it("counts refusals made while nothing is braked under the credential's user", () => {
      const brake = new RefusalBrake({ max: 2, delayMs: 60_000 }, 10_000, () => 0);
      brake.refused(credentialKey(req({ authorization: 'Bearer other-session' }))!, 7);
      brake.refused(credentialKey(req({ authorization: 'Bearer a' }))!, 7);
      expect(send(brake, 'Bearer a', 200)).toBe('held');
      expect(send(brake, 'Bearer other-session', 200)).toBe('held');
      expect(send(brake, 'Bearer c', 200)).toBe('passed');
    });
  });
});
