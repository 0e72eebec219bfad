import { RendererPage, SearchEntry } from '../../api/types';
import { EntryPages } from './entry-pages';

const entry = (i: number): SearchEntry => ({
  TS: `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
  SRC: '10.0.0.1',
  Tag: 3,
  Data: Buffer.from(`line ${i} <b>é</b>`).toString('base64'),
});

function fakeStore(total: number, finished = true) {
  const asked: Array<[number, number]> = [];
  const fetch = async (first: number, last: number): Promise<RendererPage<SearchEntry[]>> => {
    asked.push([first, last]);
    const entries = Array.from({ length: Math.max(0, Math.min(last, total) - first) }, (_, k) => entry(first + k));
    return { SearchID: '1', EntryCount: total, Finished: finished, OverLimit: false, AdditionalEntries: last < total, Entries: entries, Tags: { web: 3 } };
  };
  return { fetch, asked };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('EntryPages', () => {
  it('loads the pages on screen once, decodes entries as text and maps tag numbers to names', async () => {
    const store = fakeStore(1200);
    let changes = 0;
    const pages = new EntryPages(store.fetch, () => changes++, 500);
    expect(pages.peek(0)).toBeUndefined();
    pages.ensure(450, 520, 1200);
    pages.ensure(450, 520, 1200);
    await settle();
    expect(store.asked).toEqual([
      [0, 500],
      [500, 1000],
    ]);
    expect(changes).toBe(2);
    expect(pages.peek(501)).toEqual({ ts: '2024-01-01T00:00:21Z', tag: 'web', src: '10.0.0.1', data: 'line 501 <b>é</b>', cut: 0, evs: [] });
    pages.ensure(0, 1000, 1200);
    await settle();
    expect(store.asked.length).toBe(2);
  });

  it('forgets the least recently used pages beyond its limit', async () => {
    const store = fakeStore(5000);
    const pages = new EntryPages(store.fetch, () => undefined, 100, 3);
    for (const at of [0, 100, 200, 300]) pages.ensure(at, at + 1, 5000);
    await settle();
    expect(pages.peek(0)).toBeUndefined();
    expect(pages.peek(300)?.data).toBe('line 300 <b>é</b>');
  });
});
