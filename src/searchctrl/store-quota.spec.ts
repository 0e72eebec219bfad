import { StoreQuotas } from './store-quota';

describe('StoreQuotas', () => {
  const quotas = () => new StoreQuotas({ totalBytes: 1000, savedBytes: 400, savedSearches: 2 });

  it('counts every search of a user as it writes, and stops them at SEARCH_STORE_QUOTA_BYTES together', () => {
    const q = quotas();
    const a = q.open(1);
    const b = q.open(1);
    expect(a.take(600)).toBe(true);
    expect(b.take(500)).toBe(false);
    expect(b.take(400)).toBe(true);
    expect(q.usage(1)).toEqual({ total: 1000, saved: 0, savedSearches: 0 });
    // Another user has quotas of their own.
    expect(q.open(2).take(1000)).toBe(true);
    a.release();
    a.release();
    expect(q.usage(1).total).toBe(400);
  });

  it('counts a search saved while it runs against SAVED_SEARCH_QUOTA_BYTES for what it writes afterwards', () => {
    const q = quotas();
    const running = q.open(1);
    running.take(100);
    running.markSaved();
    expect(q.usage(1)).toEqual({ total: 100, saved: 100, savedSearches: 1 });
    expect(running.take(300)).toBe(true);
    expect(running.take(1)).toBe(false);
    expect(q.refusal(1, 1, true)?.message).toBe(
      'Saved searches quota exceeded: your saved searches use 400 bytes of the limit of 400 bytes (SAVED_SEARCH_QUOTA_BYTES); delete saved searches to make room',
    );
    // No room left to save another: 413, nothing changes.
    const other = q.open(1);
    other.take(10);
    expect(() => other.markSaved()).toThrow(expect.objectContaining({ status: 413 }));
    expect(q.usage(1)).toEqual({ total: 410, saved: 400, savedSearches: 1 });
    running.release();
    expect(q.usage(1)).toEqual({ total: 10, saved: 0, savedSearches: 0 });
  });

  it('caps the number of saved searches (MAX_SAVED_SEARCHES_PER_USER) and settles an import to its real size', () => {
    const q = quotas();
    const imports = [q.open(1), q.open(1)];
    for (const i of imports) i.markSaved(1);
    expect(() => q.open(1).markSaved(1)).toThrow(expect.objectContaining({ status: 409, message: expect.stringContaining('MAX_SAVED_SEARCHES_PER_USER') }));
    imports[0].take(300);
    imports[0].settle(250);
    expect(q.usage(1)).toEqual({ total: 250, saved: 250, savedSearches: 2 });
    // Restored at start-up: counted whatever the quotas say.
    const restored = q.open(1);
    restored.restoreSaved(5000);
    expect(q.usage(1)).toEqual({ total: 5250, saved: 5250, savedSearches: 3 });
  });
});
