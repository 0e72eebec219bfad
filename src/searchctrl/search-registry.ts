import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { LiveSearch } from './search.model';

/** In-memory table of persistent searches, keyed by numeric string ID. */
@Injectable()
export class SearchRegistry {
  private readonly searches = new Map<string, LiveSearch>();

  /** A fresh random ID of 10 or 11 digits (fits a bigint and JavaScript's safe integers). */
  newId(): string {
    for (;;) {
      const id = String(randomInt(1_000_000_000, 99_999_999_999));
      if (!this.searches.has(id)) return id;
    }
  }

  get(id: string): LiveSearch | undefined {
    return this.searches.get(id);
  }

  add(s: LiveSearch): void {
    this.searches.set(s.id, s);
  }

  remove(id: string): void {
    this.searches.delete(id);
  }

  all(): LiveSearch[] {
    return [...this.searches.values()];
  }

  /** Searches of a user that count against the concurrency limit (everything not saved). */
  liveCountOf(uid: number): number {
    let n = 0;
    for (const s of this.searches.values()) if (s.uid === uid && !s.flags.saved) n++;
    return n;
  }
}
