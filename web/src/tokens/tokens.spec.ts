import { describe, expect, it } from '@jest/globals';
import { ApiToken, CapabilityDesc } from '../api/types';
import { groupByArea, summarize, summaryText, templateCaps } from './capability-areas';
import { expiryValue, isExpired, tomorrow } from './expiry';
import { tokenMatches } from './token-list';

const cap = (Cap: number, Name: string, Category: string, Grants = true): CapabilityDesc => ({ Cap, Name, Desc: `${Name} things`, Category, Grants });
const CATALOG = [
  cap(38, 'Ingest', 'Data Ingest'),
  cap(1, 'Download', 'Search'),
  cap(0, 'Search', 'Search'),
  cap(26, 'KitRead', 'Kits', false),
  cap(8, 'SearchGroupHistory', 'Search', false),
];

describe('capability areas', () => {
  it('groups by category in the order of their first capability, granting when any of them grants', () => {
    const areas = groupByArea(CATALOG);
    expect(areas.map((a) => [a.name, a.caps.map((c) => c.Name), a.grants])).toEqual([
      ['Search', ['Search', 'Download', 'SearchGroupHistory'], true],
      ['Kits', ['KitRead'], false],
      ['Data Ingest', ['Ingest'], true],
    ]);
  });

  it('summarizes what a token holds by area, unknown names last', () => {
    const areas = groupByArea(CATALOG);
    const held = summarize(['Ingest', 'Download', 'Search', 'Mystery'], areas);
    expect(held.map(summaryText)).toEqual(['Search: Search, Download', 'Data Ingest: Ingest', 'Other: Mystery']);
    expect(summarize(['Search', 'Download', 'SearchGroupHistory'], areas).map(summaryText)).toEqual(['Search: all']);
    expect(summarize(['Search'], []).map(summaryText)).toEqual(['Other: Search']);
  });

  it('keeps a template to what the catalog offers', () => {
    const areas = groupByArea(CATALOG);
    expect(templateCaps(['Ingest', 'Stats'], areas)).toEqual(['Ingest']);
    expect(templateCaps(['Ingest', 'Stats'], [])).toEqual(['Ingest', 'Stats']);
  });
});

describe('token expiry', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  it('keeps, never expires, or counts days from now', () => {
    expect(expiryValue('keep', '', now)).toBeUndefined();
    expect(expiryValue('never', '', now)).toBeNull();
    expect(expiryValue('30', '', now)).toBe('2026-12-26T10:00:00.000Z');
  });

  it('expires at the end of a picked day in the zone, and refuses a missing or past day', () => {
    expect(expiryValue('date', '2027-01-31', now, 'UTC')).toBe('2027-01-31T23:59:59.000Z');
    expect(expiryValue('date', '2027-01-31', now, 'America/New_York')).toBe('2027-02-01T04:59:59.000Z');
    expect(() => expiryValue('date', '', now, 'UTC')).toThrow('Pick the day the token expires.');
    expect(() => expiryValue('date', '2026-11-25', now, 'UTC')).toThrow('The expiry day must be in the future.');
    expect(tomorrow(now, 'UTC')).toBe('2026-11-27');
  });

  it('tells an expired token', () => {
    expect(isExpired(undefined, now)).toBe(false);
    expect(isExpired('2026-11-26T09:59:59Z', now)).toBe(true);
    expect(isExpired('2026-11-27T00:00:00Z', now)).toBe(false);
  });
});

describe('token filter', () => {
  const t: ApiToken = { id: 'x', name: 'web01 shipper', description: 'nginx logs', uid: 3, createdAt: '', capabilities: ['Ingest'], lastUsedAt: null };
  it('matches name, description, capability and owner', () => {
    expect(tokenMatches(t, 'WEB01 nginx ingest')).toBe(true);
    expect(tokenMatches(t, 'carol', 'carol')).toBe(true);
    expect(tokenMatches(t, 'search')).toBe(false);
  });
});
