/**
 * One run of `compute` at a time, shared by every caller: a caller that arrives while it runs
 * gets the same promise, and a result stays fresh for `ttlMs`. Many subscribers of a periodic
 * status (the stats websocket) then cost one computation, and a slow one never overlaps itself.
 */
export class SingleFlight<T> {
  private running?: Promise<T>;
  private last?: { value: T; at: number };

  constructor(
    private readonly compute: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<T> {
    if (this.last && this.now() - this.last.at < this.ttlMs) return Promise.resolve(this.last.value);
    this.running ??= this.compute().then(
      (value) => {
        this.last = { value, at: this.now() };
        this.running = undefined;
        return value;
      },
      (err: unknown) => {
        this.running = undefined;
        throw err;
      },
    );
    return this.running;
  }
}
