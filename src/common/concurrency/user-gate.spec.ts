import { GatePlace, UserGate } from './user-gate';

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

describe('UserGate long lane', () => {
  const refused = (scope: 'user' | 'all') => new Error(`refused ${scope}`);
  /** A task that runs until released (or failed), and hands out its place once it has started. */
  const task = (gate: UserGate, uid: number | undefined) => {
    let release!: () => void;
    let fail!: (err: Error) => void;
    let started!: (place: GatePlace) => void;
    const place = new Promise<GatePlace>((r) => (started = r));
    const done = gate.run(
      uid,
      (p) =>
        new Promise<string>((resolve, reject) => {
          release = () => resolve('done');
          fail = reject;
          started(p);
        }),
    );
    return { place, done, release: () => release(), fail: (err: Error) => fail(err) };
  };
  /** Settles once every promise already due has run (a task handed a place starts within a few turns). */
  const flush = () => new Promise((r) => setImmediate(r));
  const startedYet = async (p: Promise<GatePlace>) => {
    let yes = false;
    void p.then(() => (yes = true));
    await flush();
    return yes;
  };

  it('moves a task to the long lane when there is room: its overall place goes to the next task at once', async () => {
    const gate = new UserGate(1, 2, 4, refused, 2);
    const long = task(gate, 1);
    const short = task(gate, 2);
    expect(await startedYet(short.place)).toBe(false);
    expect((await long.place).moveToLong()).toBe(true);
    expect(await startedYet(short.place)).toBe(true);
    expect(gate.load).toEqual({ overall: 1, long: 1, wanting: 0 });
    // Idempotent: a second call answers where it is and takes nothing more.
    expect((await long.place).moveToLong()).toBe(true);
    expect((await long.place).long).toBe(true);
    expect(gate.load).toEqual({ overall: 1, long: 1, wanting: 0 });
    short.release();
    long.release();
    await expect(Promise.all([short.done, long.done])).resolves.toEqual(['done', 'done']);
    expect(gate.load).toEqual({ overall: 0, long: 0, wanting: 0 });
  });

  it('keeps the overall place when the long lane is full, and moves when a long place frees', async () => {
    const gate = new UserGate(2, 2, 4, refused, 1);
    const a = task(gate, 1);
    const b = task(gate, 2);
    const waiting = task(gate, 3);
    expect((await a.place).moveToLong()).toBe(true);
    expect(await startedYet(waiting.place)).toBe(true);
    expect(gate.load).toEqual({ overall: 2, long: 1, wanting: 0 });
    // The long lane is full: b keeps its overall place (nothing waits, nothing is lost).
    expect((await b.place).moveToLong()).toBe(false);
    expect((await b.place).long).toBe(false);
    expect(gate.load).toEqual({ overall: 2, long: 1, wanting: 1 });
    const next = task(gate, 4);
    expect(await startedYet(next.place)).toBe(false);
    // a ends: its long place goes to b, whose overall place goes to the next task.
    a.release();
    await a.done;
    expect((await b.place).long).toBe(true);
    expect(await startedYet(next.place)).toBe(true);
    expect(gate.load).toEqual({ overall: 2, long: 1, wanting: 0 });
    for (const t of [b, waiting, next]) t.release();
    await Promise.all([b.done, waiting.done, next.done]);
    expect(gate.load).toEqual({ overall: 0, long: 0, wanting: 0 });
  });

  it('without a long lane, a task never moves', async () => {
    const gate = new UserGate(1, 1, 1, refused);
    const a = task(gate, 1);
    expect((await a.place).moveToLong()).toBe(false);
    expect(gate.load).toEqual({ overall: 1, long: 0, wanting: 0 });
    a.release();
    await a.done;
    expect(gate.load).toEqual({ overall: 0, long: 0, wanting: 0 });
  });

  it('gives every place back exactly once when a task fails or is cancelled, moved or not, or waiting to move', async () => {
    const gate = new UserGate(2, 2, 0, refused, 1);
    const moved = task(gate, 1);
    const stuck = task(gate, 2);
    expect((await moved.place).moveToLong()).toBe(true);
    expect((await stuck.place).moveToLong()).toBe(false);
    const plain = task(gate, 3);
    await plain.place;
    expect(gate.load).toEqual({ overall: 2, long: 1, wanting: 1 });
    // The one waiting to move fails: it leaves the overall lane and no longer waits for a long place.
    stuck.fail(new Error('cancelled'));
    await expect(stuck.done).rejects.toThrow('cancelled');
    expect(gate.load).toEqual({ overall: 1, long: 1, wanting: 0 });
    moved.fail(new Error('timed out'));
    await expect(moved.done).rejects.toThrow('timed out');
    expect(gate.load).toEqual({ overall: 1, long: 0, wanting: 0 });
    // A late move (the task has ended) takes nothing.
    expect((await moved.place).moveToLong()).toBe(false);
    expect((await stuck.place).moveToLong()).toBe(false);
    expect(gate.load).toEqual({ overall: 1, long: 0, wanting: 0 });
    plain.release();
    await plain.done;
    expect(gate.load).toEqual({ overall: 0, long: 0, wanting: 0 });
    // Nothing was given back twice: exactly two run at once again, and the third is refused (queue 0).
    const again = [task(gate, 1), task(gate, 2)];
    await Promise.all(again.map((t) => t.place));
    await expect(gate.run(3, async () => 'x')).rejects.toThrow('refused all');
    for (const t of again) t.release();
    await Promise.all(again.map((t) => t.done));
  });

  it('keeps the per-user place of a moved task: one user still runs at most perUser at once', async () => {
    const gate = new UserGate(1, 2, 1, refused, 2);
    const first = task(gate, 1);
    const second = task(gate, 1);
    expect((await first.place).moveToLong()).toBe(true);
    expect((await second.place).moveToLong()).toBe(true);
    expect(gate.load).toEqual({ overall: 0, long: 2, wanting: 0 });
    // Both of user 1's places are taken: a third waits in user 1's queue, a fourth is refused.
    const third = task(gate, 1);
    expect(await startedYet(third.place)).toBe(false);
    expect(() => gate.check(1)).toThrow('refused user');
    await expect(gate.run(1, async () => 'x')).rejects.toThrow('refused user');
    // Another user gets the free overall place at once.
    await expect(gate.run(2, async () => 'other')).resolves.toBe('other');
    first.release();
    await first.done;
    expect(await startedYet(third.place)).toBe(true);
    expect(gate.load).toEqual({ overall: 1, long: 1, wanting: 0 });
    second.release();
    third.release();
    await Promise.all([second.done, third.done]);
    expect(gate.load).toEqual({ overall: 0, long: 0, wanting: 0 });
  });
});
