/**
 * Counts events per key in a fixed window (failed password guesses per account and address,
 * archive imports per user). In memory: one web server process. Keys expire with their window;
 * the map is pruned so that a flood of random keys cannot grow it without bound.
 */
export class WindowCounter {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs: number) {}

  /** Seconds until `key` may try again, or 0 when it is below `max` events. */
  blockedFor(key: string, max: number, now = Date.now()): number {
    const f = this.failures.get(key);
    if (!f || f.resetAt <= now) return 0;
    return f.count >= max ? (f.resetAt - now) / 1000 : 0;
  }

  record(key: string, now = Date.now()): void {
    const f = this.failures.get(key);
    if (!f || f.resetAt <= now) {
      if (this.failures.size >= 200_000) this.prune(now);
      this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
    } else {
      f.count++;
    }
  }

  /** Events of `key` in its current window, and when that window ends (undefined: none). */
  state(key: string, now = Date.now()): { count: number; resetAt: number } | undefined {
    const f = this.failures.get(key);
    return f && f.resetAt > now ? { ...f } : undefined;
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private prune(now: number): void {
    for (const [k, f] of this.failures) if (f.resetAt <= now) this.failures.delete(k);
    if (this.failures.size >= 200_000) this.failures.clear();
  }
}
