/**
 * What one user's searches store on disk, counted as it is written (issue 32, item 7). Every
 * search has an account with its owner's totals; a render store asks it before each write, so
 * a search saved while it runs, or several archive imports at once, cannot pass a quota by
 * being checked once at the start. Three bounds per user:
 *
 * - SEARCH_STORE_QUOTA_BYTES: the results of all their searches (running, backgrounded, saved,
 *   imported); past it a running search stores no more (OverLimit), a save or import is 413.
 * - SAVED_SEARCH_QUOTA_BYTES: the results of their saved (and being saved) and imported ones.
 * - MAX_SAVED_SEARCHES_PER_USER: how many of those they keep (409 beyond; MAX_SEARCHES_PER_USER
 *   counts the unsaved ones).
 */
import { AppError, refusal } from '../common/errors/app-error';

export interface QuotaLimits {
  totalBytes: number;
  savedBytes: number;
  savedSearches: number;
}

interface Usage {
  total: number;
  saved: number;
  savedSearches: number;
}

/** The bytes one search's store may still take, asked before each write (RenderStore). */
export interface StoreBudget {
  /** Takes `bytes` from the owner's quotas; false (nothing taken) when they would pass one. */
  take(bytes: number): boolean;
}

export class StoreQuotas {
  private readonly users = new Map<number, Usage>();

  constructor(readonly limits: QuotaLimits) {}

  /** A new search's account (nothing charged yet). */
  open(uid: number): SearchAccount {
    return new SearchAccount(this, uid);
  }

  usage(uid: number): Readonly<Usage> {
    return this.users.get(uid) ?? { total: 0, saved: 0, savedSearches: 0 };
  }

  /** @internal Adds (or with negative numbers removes) usage of `uid`. */
  add(uid: number, d: Partial<Usage>): void {
    const u = this.users.get(uid) ?? { total: 0, saved: 0, savedSearches: 0 };
    u.total += d.total ?? 0;
    u.saved += d.saved ?? 0;
    u.savedSearches += d.savedSearches ?? 0;
    if (u.total <= 0 && u.saved <= 0 && u.savedSearches <= 0) this.users.delete(uid);
    else this.users.set(uid, u);
  }

  /** The 413 for `bytes` more than `uid` has room for, naming the quota it would pass; undefined when they fit. */
  refusal(uid: number, bytes: number, saved: boolean): AppError | undefined {
    const u = this.usage(uid);
    const { totalBytes, savedBytes } = this.limits;
    if (saved && u.saved + bytes > savedBytes) {
      return refusal('SAVED_SEARCH_QUOTA_EXCEEDED', u.saved, savedBytes);
    }
    if (u.total + bytes > totalBytes) {
      return refusal('SEARCH_STORE_QUOTA_EXCEEDED', u.total, totalBytes);
    }
    return undefined;
  }
}

/** One search's share of its owner's quotas. */
export class SearchAccount implements StoreBudget {
  /** Bytes charged to this search. */
  bytes = 0;
  /** Counted as saved: its bytes are in the saved quota, and it holds one of the owner's saved searches. */
  saved = false;
  private closed = false;

  constructor(
    private readonly quotas: StoreQuotas,
    readonly uid: number,
  ) {}

  take(bytes: number): boolean {
    if (this.closed || this.quotas.refusal(this.uid, bytes, this.saved)) return false;
    this.charge(bytes);
    return true;
  }

  /**
   * Counts the search as saved from now on (PATCH save, or an import starting): 409 past
   * MAX_SAVED_SEARCHES_PER_USER, 413 when its bytes (and `more`) do not fit the saved quota.
   * Changes nothing when refused; idempotent.
   */
  markSaved(more = 0): void {
    if (this.saved) return;
    const max = this.quotas.limits.savedSearches;
    if (this.quotas.usage(this.uid).savedSearches >= max) {
      throw refusal('TOO_MANY_SAVED_SEARCHES', max);
    }
    const refused = this.quotas.refusal(this.uid, this.bytes + more, true) ?? (more ? this.quotas.refusal(this.uid, more, false) : undefined);
    if (refused) throw refused;
    this.saved = true;
    this.quotas.add(this.uid, { saved: this.bytes, savedSearches: 1 });
  }

  /** A saved search found at start-up: counted as saved with what it stores, whatever the quotas say. */
  restoreSaved(bytes: number): void {
    if (this.saved) return;
    this.saved = true;
    this.quotas.add(this.uid, { saved: this.bytes, savedSearches: 1 });
    this.charge(bytes);
  }

  /** Sets the charge to what the store really holds (an import's final size). */
  settle(bytes: number): void {
    this.charge(bytes - this.bytes);
  }

  /** The search is gone: everything it held is given back (idempotent). */
  release(): void {
    if (this.closed) return;
    this.quotas.add(this.uid, { total: -this.bytes, saved: this.saved ? -this.bytes : 0, savedSearches: this.saved ? -1 : 0 });
    this.bytes = 0;
    this.closed = true;
  }

  private charge(bytes: number): void {
    if (this.closed) return;
    this.bytes += bytes;
    this.quotas.add(this.uid, { total: bytes, saved: this.saved ? bytes : 0 });
  }
}
