import { RecentLongSearches } from './search-priority';

describe('RecentLongSearches', () => {
  it('starts a user demoted for `memoryMs` after their last long search, and no one else', () => {
    let now = 0;
    const recent = new RecentLongSearches(10_000, () => now);
    expect(recent.startsLong(1)).toBe(false);
    recent.ranLong(1);
    expect(recent.startsLong(1)).toBe(true);
    expect(recent.startsLong(2)).toBe(false);
    expect(recent.startsLong(undefined)).toBe(false); // the service's own searches
    now = 9_999;
    expect(recent.startsLong(1)).toBe(true);
    now = 10_000;
    expect(recent.startsLong(1)).toBe(false);
  });
});
