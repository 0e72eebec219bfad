import { Inject, Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/env.schema';
import { LiveSearch } from './search.model';
import { StoreQuotas } from './store-quota';

/** In-memory table of persistent searches, keyed by numeric string ID, with their owners' storage quotas. */
@Injectable()
export class SearchRegistry {
  private readonly searches = new Map<string, LiveSearch>();
  /** What each user's searches store, counted as it is written (store-quota.ts). */
  readonly quotas: StoreQuotas;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.quotas = new StoreQuotas({ totalBytes: config.searchStoreQuotaBytes, savedBytes: config.savedSearchQuotaBytes, savedSearches: config.maxSavedSearchesPerUser });
  }

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

  /**
   * Searches of a user that count against MAX_SEARCHES_PER_USER: everything not saved yet
   * (searches being saved count until their results have moved; saved ones count against
   * MAX_SAVED_SEARCHES_PER_USER, see store-quota.ts).
   */
  liveCountOf(uid: number): number {
    let n = 0;
    for (const s of this.searches.values()) if (s.uid === uid && !s.flags.saved) n++;
    return n;
  }
}
