/**
 * Merges newest-first entry streams from several indexers into one newest-first stream. Each
 * source reports a watermark (every entry it has yet to send is older than or equal to it); an
 * entry (decoded, or encoded with its time) can be released once no active source may still send
 * a newer one.
 */
export class StreamMerge<T extends { ts: number }> {
  private readonly pending: T[] = [];
  private readonly watermarks: number[];
  private readonly active: boolean[];

  constructor(sources: number) {
    this.watermarks = Array.from({ length: sources }, () => Number.POSITIVE_INFINITY);
    this.active = Array.from({ length: sources }, () => true);
  }

  /** Adds a source's entries (newest first) and its new watermark; returns what may be released, newest first. */
  add(source: number, entries: T[], watermark: number): T[] {
    for (const e of entries) this.pending.push(e);
    this.watermarks[source] = watermark;
    return this.release();
  }

  /** The source has sent everything. */
  finish(source: number): T[] {
    this.active[source] = false;
    return this.release();
  }

  private release(): T[] {
    if (!this.pending.length) return [];
    let bound = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < this.active.length; i++) if (this.active[i]) bound = Math.max(bound, this.watermarks[i]);
    this.pending.sort((a, b) => b.ts - a.ts);
    let n = 0;
    while (n < this.pending.length && this.pending[n].ts >= bound) n++;
    return this.pending.splice(0, n);
  }
}
