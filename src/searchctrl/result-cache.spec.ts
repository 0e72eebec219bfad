import { ResultCache } from './result-cache';

describe('ResultCache', () => {
  it('keeps results within its byte budget, least recently used out first, and never one larger than the budget', () => {
    const c = new ResultCache<string>(100);
    c.set('a', 'A', 40);
    c.set('b', 'B', 40);
    expect(c.get('a')).toBe('A'); // a is now the most recent
    c.set('c', 'C', 40);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual(['A', undefined, 'C']);
    c.set('huge', 'H', 101);
    expect(c.get('huge')).toBeUndefined();
    c.delete('a');
    c.set('d', 'D', 60);
    expect([c.get('c'), c.get('d')]).toEqual(['C', 'D']);
  });
});
