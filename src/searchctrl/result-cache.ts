/**
 * Condensed results (tables, charts, gauges) parsed from their `result.json`, kept while the
 * total of their file sizes stays under a budget; the least recently used go first. A saved or
 * imported search costs no memory until someone reads it, and reading many costs at most the
 * budget (a result larger than the budget is parsed for each read and never kept).
 */
export class ResultCache<T> {
  private readonly items = new Map<string, { value: T; bytes: number }>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  get(key: string): T | undefined {
    const hit = this.items.get(key);
    if (!hit) return undefined;
    this.items.delete(key);
    this.items.set(key, hit);
    return hit.value;
  }

  set(key: string, value: T, bytes: number): void {
    this.delete(key);
    if (bytes > this.budgetBytes) return;
    this.items.set(key, { value, bytes });
    this.total += bytes;
    for (const [k, v] of this.items) {
      if (this.total <= this.budgetBytes) break;
      this.items.delete(k);
      this.total -= v.bytes;
    }
  }

  delete(key: string): void {
    const hit = this.items.get(key);
    if (!hit) return;
    this.items.delete(key);
    this.total -= hit.bytes;
  }
}
