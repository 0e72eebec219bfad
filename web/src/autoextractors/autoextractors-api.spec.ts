import { describe, expect, it } from '@jest/globals';
import { Autoextractor } from '../api/types';
import { autoextractorMatches, parseTags, preview } from './autoextractors-api';

const ax = (over: Partial<Autoextractor>): Autoextractor => ({
  UUID: '00000000-0000-4000-8000-000000000001',
  UID: 1,
  GIDs: null,
  Global: false,
  Tag: 'apache',
  Tags: ['apache', 'nginx'],
  Name: 'weblog',
  Desc: 'Access logs',
  Module: 'regex',
  Params: '(?P<ip>\\S+) (?P<url>\\S+)',
  Args: '',
  Labels: ['web'],
  LastUpdated: '2024-01-01T00:00:00Z',
  Can: { Delete: true, Modify: true, Share: true },
  ...over,
});

describe('autoextractors in the console', () => {
  it('reads tags separated by commas or spaces, once each', () => {
    expect(parseTags(' apache, nginx  apache,,')).toEqual(['apache', 'nginx']);
    expect(parseTags('')).toEqual([]);
  });
  it('the filter finds an extractor by name, any tag, module, label or parameter, and by the label picked', () => {
    for (const text of ['weblog', 'nginx', 'regex', 'web', '?P<url>', 'access logs']) expect(autoextractorMatches(ax({}), text)).toBe(true);
    expect(autoextractorMatches(ax({}), 'csv')).toBe(false);
    expect(autoextractorMatches(ax({}), '', 'web')).toBe(true);
    expect(autoextractorMatches(ax({}), '', 'other')).toBe(false);
  });
  it('previews long parameters on one line', () => {
    expect(preview('a\n  b')).toBe('a b');
    expect(preview('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
