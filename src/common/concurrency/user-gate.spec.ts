import { UserGate } from './user-gate';

describe('UserGate', () => {
  const refused = (scope: 'user' | 'all') => new Error(`refused ${scope}`);
  const later = () => {
    let release!: () => void;
    const done = new Promise<void>((r) => (release = r));
    return { done, release };
  };

  it('runs one user at a time, lets others through, and refuses past the queue', async () => {
    const gate = new UserGate(2, 1, 1, refused);
    const a1 = later();
    const order: string[] = [];
    const first = gate.run(1, async () => {
      order.push('a1');
      await a1.done;
    });
    const second = gate.run(1, async () => void order.push('a2'));
    // Another user is not held behind user 1.
    await gate.run(2, async () => void order.push('b1'));
    expect(() => gate.check(1)).toThrow('refused user');
    await expect(gate.run(1, async () => undefined)).rejects.toThrow('refused user');
    a1.release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a1', 'b1', 'a2']);
    expect(() => gate.check(1)).not.toThrow();
  });

  it('refuses everyone once every slot and the shared queue are taken', async () => {
    const gate = new UserGate(1, 1, 0, refused);
    const hold = later();
    const running = gate.run(1, () => hold.done);
    await expect(gate.run(2, async () => undefined)).rejects.toThrow('refused all');
    hold.release();
    await running;
    await expect(gate.run(2, async () => 'ok')).resolves.toBe('ok');
  });

  it('hands out a slot until it is given back (acquire), for work that ends with an event', async () => {
    const gate = new UserGate(Infinity, 1, 1, refused);
    const release = await gate.acquire(7);
    let second = false;
    const waiting = gate.acquire(7).then((r) => {
      second = true;
      return r;
    });
    await expect(gate.acquire(7)).rejects.toThrow('refused user');
    await Promise.resolve();
    expect(second).toBe(false);
    release();
    (await waiting)();
    expect(second).toBe(true);
  });
});
