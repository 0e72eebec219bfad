import { describe, expect, it } from '@jest/globals';
import { LibraryEntry } from '../api/types';
import { entryMatches, parseLabels } from './library-api';
import { allLabels } from '../ui/kept-filter';
import { openSearchLink, searchLink } from '../ui/search-link';

const entry = (over: Partial<LibraryEntry>): LibraryEntry => ({
  ThingUUID: 't',
  GUID: 'g',
  UID: 1,
  Global: false,
  Name: 'Not found pages',
  Description: 'Requests answered 404',
  Query: 'tag=web grep "status=404"',
  Can: { Delete: true, Modify: true, Share: true },
  ...over,
});

describe('library helpers', () => {
  it('reads labels from comma-separated text: trimmed, without blanks or repeats, in order', () => {
    expect(parseLabels(' web, errors ,, web,  ')).toEqual(['web', 'errors']);
    expect(parseLabels('')).toEqual([]);
  });

  it('matches every typed word in the name, description, query or labels, and the chosen label', () => {
    const e = entry({ Labels: ['http', 'errors'] });
    expect(entryMatches(e, '')).toBe(true);
    expect(entryMatches(e, 'NOT found')).toBe(true);
    expect(entryMatches(e, 'answered status=404 errors')).toBe(true);
    expect(entryMatches(e, 'found missing')).toBe(false);
    expect(entryMatches(e, '', 'http')).toBe(true);
    expect(entryMatches(e, '', 'web')).toBe(false);
    expect(entryMatches(entry({}), '', 'http')).toBe(false);
  });

  it('lists the labels in use once, sorted', () => {
    expect(allLabels([entry({ Labels: ['web', 'b'] }), entry({}), entry({ Labels: ['a', 'web'] })])).toEqual(['a', 'b', 'web']);
  });

  it('links into the search page with the query encoded', () => {
    expect(searchLink('tag=web grep "a&b" | table')).toBe('/search?q=tag%3Dweb+grep+%22a%26b%22+%7C+table');
    expect(searchLink('x', true)).toBe('/search?q=x&run=1');
    expect(openSearchLink('123')).toBe('/search?id=123');
  });
});
