import { SingleFlight } from './single-flight';

describe('SingleFlight', () => {
  it('runs one computation for callers that arrive while it runs, and reuses the result while fresh', async () => {
    let runs = 0;
    let release!: () => void;
    let clock = 0;
    const flight = new SingleFlight(
      () => new Promise<number>((resolve) => ((release = () => resolve(++runs)), undefined)),
      1000,
      () => clock,
    );
    const a = flight.get();
    const b = flight.get();
    release();
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    clock = 999;
    expect(await flight.get()).toBe(1);
    clock = 1000;
    const c = flight.get();
    release();
    expect(await c).toBe(2);
    expect(runs).toBe(2);
  });

  it('does not keep a failure: the next caller computes again', async () => {
    let fail = true;
    const flight = new SingleFlight(async () => {
      if (fail) throw new Error('down');
      return 'up';
    }, 1000);
    await expect(flight.get()).rejects.toThrow('down');
    fail = false;
    await expect(flight.get()).resolves.toBe('up');
  });
});
