import { describe, expect, it } from '@jest/globals';
import { Macro } from '../api/types';
import { expansionPreview, macroMatches } from './macros-api';

const macro = (over: Partial<Macro>): Macro => ({
  ID: 1,
  UID: 1,
  GIDs: null,
  Global: false,
  WriteAccess: { Global: false, GIDs: [] },
  Name: 'WEB404',
  Description: 'Requests answered 404',
  Expansion: 'tag=web grep "status=404"',
  Labels: null,
  LastUpdated: '2026-01-01T00:00:00.000Z',
  Synced: true,
  Can: { Delete: true, Modify: true, Share: true },
  ...over,
});

describe('macro helpers', () => {
  it('matches every typed word in the $NAME, description, expansion or labels, and the chosen label', () => {
    const m = macro({ Labels: ['http', 'errors'] });
    expect(macroMatches(m, '')).toBe(true);
    expect(macroMatches(m, '$web404')).toBe(true);
    expect(macroMatches(m, 'answered status=404 errors')).toBe(true);
    expect(macroMatches(m, 'web404 missing')).toBe(false);
    expect(macroMatches(m, '', 'http')).toBe(true);
    expect(macroMatches(m, '', 'dns')).toBe(false);
    expect(macroMatches(macro({}), '', 'http')).toBe(false);
  });

  it('previews the expansion on one line, cut with an ellipsis', () => {
    expect(expansionPreview('tag=web\n  json user\t| table')).toBe('tag=web json user | table');
    expect(expansionPreview('x'.repeat(10), 8)).toBe(`${'x'.repeat(7)}…`);
    expect(expansionPreview('x'.repeat(8), 8)).toBe('x'.repeat(8));
  });
});
