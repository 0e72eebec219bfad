import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { payloadTooLarge } from '../common/errors/app-error';
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

  /** Stored bytes of a user's saved (and imported) searches and of those being saved. */
  savedBytesOf(uid: number): number {
    let n = 0;
    for (const s of this.searches.values()) if (s.uid === uid && (s.flags.saved || s.flags.saveRequested)) n += s.store.storeSize + s.store.indexSize;
    return n;
  }

  /** Searches of a user that count against the concurrency limit (everything not saved). */
  liveCountOf(uid: number): number {
    let n = 0;
    for (const s of this.searches.values()) if (s.uid === uid && !s.flags.saved) n++;
    return n;
  }
}

/** 413 when `adding` more stored bytes would take the user's saved searches past `quota`. */
export function requireSavedQuota(registry: SearchRegistry, uid: number, adding: number, quota: number): void {
  const used = registry.savedBytesOf(uid);
  if (used + adding > quota) {
    throw payloadTooLarge(`Saved searches quota exceeded: ${used} of ${quota} bytes used (SAVED_SEARCH_QUOTA_BYTES); delete saved searches to make room`);
  }
}
