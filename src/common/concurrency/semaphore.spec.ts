import { Semaphore } from './semaphore';

const tick = () => new Promise((r) => setImmediate(r));

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, the rest in arrival order', async () => {
    const s = new Semaphore(2, 10, () => new Error('full'));
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const task = (i: number) =>
      s.run(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise<void>((r) => releases.push(r));
        running--;
        return i;
      });
    const all = Promise.all([0, 1, 2, 3, 4].map(task));
    await tick();
    expect(order).toEqual([0, 1]);
    expect(s.queued).toBe(3);
    while (order.length < 5 || releases.length) {
      releases.shift()?.();
      await tick();
    }
    expect(await all).toEqual([0, 1, 2, 3, 4]);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
  });

  it('rejects at once when the queue is full, and frees the slot when a task throws', async () => {
    const s = new Semaphore(1, 1, () => new Error('full'));
    let release!: () => void;
    const first = s.run(() => new Promise<void>((r) => (release = r)));
    const second = s.run(async () => {
      throw new Error('boom');
    });
    await expect(s.run(async () => 3)).rejects.toThrow('full');
    release();
    await first;
    await expect(second).rejects.toThrow('boom');
    expect(await s.run(async () => 'free again')).toBe('free again');
  });
});

describe('Semaphore places', () => {
  it('hands out places (take, tryTake) that are given back once, however often released', async () => {
    const s = new Semaphore(1, 1, () => new Error('full'));
    const give = s.tryTake()!;
    expect(s.tryTake()).toBeUndefined();
    let next: (() => void) | undefined;
    const waiting = s.take().then((g) => (next = g));
    await expect(s.take()).rejects.toThrow('full');
    give();
    give(); // a second release does nothing
    await waiting;
    expect(s.taken).toBe(1);
    expect(s.tryTake()).toBeUndefined();
    next!();
    next!();
    expect(s.idle).toBe(true);
  });
});
