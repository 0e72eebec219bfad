/**
 * Links into the search page (its URL contract, search/SearchPage.tsx): `?q=` fills the query,
 * `&run=1` runs it at once, `?id=` opens an existing search.
 */
export function searchLink(query: string, run = false): string {
  const p = new URLSearchParams({ q: query });
  if (run) p.set('run', '1');
  return `/search?${p.toString()}`;
}

export const openSearchLink = (id: string): string => `/search?${new URLSearchParams({ id }).toString()}`;
