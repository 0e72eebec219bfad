import { describe, expect, it } from '@jest/globals';
import { SearchLog } from '../api/types';
import { collapseRepeats } from './collapse-repeats';
import { relativeTime } from './relative-time';

const log = (UserQuery: string, Launched: string): SearchLog => ({ UID: 1, GID: 0, UserQuery, EffectiveQuery: UserQuery, Launched });

describe('history helpers', () => {
  it('shows a query run several times in a row once, with the latest run and the count', () => {
    const items = [log('a', 't5'), log('a', 't4'), log('b', 't3'), log('a', 't2'), log('a', 't1'), log('a', 't0')];
    expect(collapseRepeats(items).map(({ item, times }) => [item.UserQuery, item.Launched, times])).toEqual([
      ['a', 't5', 2],
      ['b', 't3', 1],
      ['a', 't2', 3],
    ]);
    expect(collapseRepeats([])).toEqual([]);
  });

  it('says how long ago in words', () => {
    const now = Date.parse('2024-05-01T12:00:00Z');
    const ago = (s: number) => relativeTime(now - s * 1000, now);
    expect([ago(10), ago(60), ago(150), ago(50 * 60), ago(3 * 3600), ago(26 * 3600), ago(3 * 86400)]).toEqual([
      'just now',
      '1 minute ago',
      '3 minutes ago',
      '1 hour ago',
      '3 hours ago',
      '1 day ago',
      '3 days ago',
    ]);
    expect(relativeTime(NaN, now)).toBe('');
  });
});
