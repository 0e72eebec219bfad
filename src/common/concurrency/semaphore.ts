/**
 * At most `limit` tasks at a time; up to `maxWaiting` more wait in arrival order, and beyond
 * that `run` rejects at once with `onFull()` (a bounded queue: a storm cannot pile up requests).
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
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw this.onFull();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter (active stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** The error `run` would reject with now (every slot taken and the queue full), else undefined. */
  refusal(): Error | undefined {
    return this.active >= this.limit && this.waiting.length >= this.maxWaiting ? this.onFull() : undefined;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Nothing runs and nothing waits. */
  get idle(): boolean {
    return this.active === 0 && this.waiting.length === 0;
  }
}
