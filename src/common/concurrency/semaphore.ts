/**
 * At most `limit` tasks at a time; up to `maxWaiting` more wait in arrival order, and beyond
 * that `run` rejects at once with `onFull()` (a bounded queue: a storm cannot pile up requests).
 * `take` and `tryTake` hand out a place itself, for holders that give it back before their work
 * ends (UserGate's long lane).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    private readonly maxWaiting: number,
    private readonly onFull: () => Error,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.take();
    try {
      return await task();
    } finally {
      release();
    }
  }

  /** Waits for a place (or rejects with `onFull()`) and answers the function that gives it back; calls after the first do nothing. */
  async take(): Promise<() => void> {
    if (this.active < this.limit) {
      this.active++;
      return this.giveBack();
    }
    if (this.waiting.length >= this.maxWaiting) throw this.onFull();
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.giveBack();
  }

  /** A place now if one is free (never waits, never queues), else undefined. */
  tryTake(): (() => void) | undefined {
    if (this.active >= this.limit) return undefined;
    this.active++;
    return this.giveBack();
  }

  private giveBack(): () => void {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      // Hand the place straight to the next waiter (active stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }

  /** The error `run` would reject with now (every slot taken and the queue full), else undefined. */
  refusal(): Error | undefined {
    return this.active >= this.limit && this.waiting.length >= this.maxWaiting ? this.onFull() : undefined;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Places taken now. */
  get taken(): number {
    return this.active;
  }

  /** Nothing runs and nothing waits. */
  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }
}
