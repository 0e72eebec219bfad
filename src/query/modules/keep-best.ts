/**
 * Keeps the first `n` entries of a total order out of a stream (limit: the newest; top/bottom:
 * the largest or smallest values), holding at most n + n/2 + 1024 entries: once trimmed, entries
 * that rank after the n-th kept one are skipped without being held.
 */
import { HeldBytes } from '../held-bytes';
import { LimitError } from '../limits';
import { Entry } from '../types';

export class KeepBest {
  private kept: Entry[] = [];
  /** the n-th entry after the last trim: anything ranking after it can never be kept */
  private bar?: Entry;
  private readonly slack: number;

  /**
   * `cmp` ranks entries (negative: a first); `bound` is the most entries that may be held, and
   * `overflow` the error when `n` is larger and more than `bound` entries would have to be.
   */
  constructor(
    private readonly n: number,
    private readonly cmp: (a: Entry, b: Entry) => number,
    private readonly bound: number,
    private readonly overflow: () => LimitError,
    private readonly held?: HeldBytes,
  ) {
    this.slack = Math.max(1024, Math.ceil(n / 2));
  }

  add(e: Entry): void {
    if (this.bar && this.cmp(e, this.bar) >= 0) return;
    if (this.held && !this.held.fits(e) && this.kept.length > this.n) {
      // Short of memory: trim now rather than at n + slack.
      this.trim();
      if (this.bar && this.cmp(e, this.bar) >= 0) return;
    }
    this.kept.push(e);
    this.held?.add(e);
    if (this.kept.length > this.bound && this.n > this.bound) throw this.overflow();
    if (this.kept.length >= this.n + this.slack) this.trim();
  }

  addAll(entries: Iterable<Entry>): void {
    for (const e of entries) this.add(e);
  }

  private trim(): void {
    this.kept.sort(this.cmp);
    if (this.kept.length >= this.n) {
      this.kept.length = this.n;
      this.bar = this.kept[this.n - 1];
    }
    this.held?.reset(this.kept);
  }

  /** The kept entries, in order (at most n). */
  result(): Entry[] {
    this.trim();
    return this.kept;
  }
}
