import { RenderStore } from './render-store';
import { LiveSearch } from './search.model';
import { SearchSessions } from './search-sessions';

const search = (id: string) => ({ id, store: {} as RenderStore }) as unknown as LiveSearch;

describe('SearchSessions', () => {
  it('opens sessions per search, pings and closes only known ones, and lists the stale', () => {
    const t = new SearchSessions();
    const a = search('1');
    const b = search('2');
    const s1 = t.open(a);
    const s2 = t.open(a);
    expect(s1).toMatch(/^[0-9a-f-]{36}$/);
    expect(s2).not.toBe(s1);
    expect(t.touch(a, s1)).toBe(true);
    expect(t.touch(b, s1)).toBe(false);
    expect(t.stale(a, Date.now() + 1).sort()).toEqual([s1, s2].sort());
    expect(t.stale(a, Date.now() - 60_000)).toEqual([]);
    expect(t.close(b, s1)).toBe(false);
    expect(t.close(a, s1)).toBe(true);
    expect(t.close(a, s1)).toBe(false);
    t.closeAll(a);
    expect(t.touch(a, s2)).toBe(false);
    expect(t.stale(a, Date.now() + 1)).toEqual([]);
  });
});
