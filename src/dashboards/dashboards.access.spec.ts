import fc from 'fast-check';
import { AuthContext } from '../identity/auth.types';
import { AppError } from '../common/errors/app-error';
import { DashboardEntity } from './dashboard.entity';
import { MAX_DASHBOARD_ID, parseDashboardRef } from './dashboard-ref.pipe';
import { sharingCaller } from '../sharing/access-policy';
import { dashboardPolicy as policy } from './dashboards.access';
import { normalizeData, randomDashboardId } from './dashboards.service';
import { caller, statusOf } from '../sharing/access.spec-helper';

const auth = caller;
const dash = (uid: number, gids: number[] | null, global = false): DashboardEntity =>
  ({ id: 1, guid: 'g', uid, name: '', description: '', gids, global, labels: null, data: {}, createdAt: new Date(), updatedAt: new Date() }) as DashboardEntity;

const status = statusOf;

describe('dashboards.access', () => {
  const owner = auth(10, [5]);
  const member = auth(11, [5]);
  const stranger = auth(12, [6]);
  const admin = auth(1, [], true);
  const priv = dash(10, null);
  const shared = dash(10, [5]);
  const global = dash(10, [], true);

  it.each([
    ['owner', owner, [200, 200, 200], [200, 200, 200]],
    ['member', member, [404, 200, 200], [404, 403, 403]],
    ['stranger', stranger, [404, 404, 200], [404, 404, 403]],
    ['admin', admin, [200, 200, 200], [200, 200, 200]],
  ] as const)('%s: read and write over private, shared, global', (_, who, read, write) => {
    expect([priv, shared, global].map((d) => status(() => policy.require(who, d, 'read')))).toEqual(read);
    expect([priv, shared, global].map((d) => status(() => policy.require(who, d, 'change')))).toEqual(write);
    expect([priv, shared, global].map((d) => status(() => policy.require(who, d, 'delete')))).toEqual(write);
  });

  it('unknown dashboards are 404', () => {
    expect(status(() => policy.require(owner, null, 'read'))).toBe(404);
    expect(status(() => policy.require(admin, undefined, 'change'))).toBe(404);
    expect(() => policy.require(member, shared, 'delete')).toThrow('Only the owner or an admin may change or delete this dashboard');
  });

  it('readRank orders own < group < global < admin-other', () => {
    expect(policy.rank(owner, priv)).toBe(0);
    expect(policy.rank(member, shared)).toBe(1);
    expect(policy.rank(stranger, global)).toBe(2);
    expect(policy.rank(admin, priv)).toBe(3);
    expect(policy.rank(stranger, priv)).toBe(Infinity);
  });

  it('tokens (isAdmin false) of admin accounts get no admin rights', () => {
    const tokenOfAdmin: AuthContext = { ...admin, isAdmin: false, token: { id: 't', capabilities: new Set(), expiresAt: null } };
    expect(policy.canRead(tokenOfAdmin, priv)).toBe(false);
    expect(policy.canChange(tokenOfAdmin, global)).toBe(false);
    expect(sharingCaller(tokenOfAdmin, true).adminMode).toBe(false);
    expect(sharingCaller(admin, true).adminMode).toBe(true);
    expect(sharingCaller(admin, undefined).adminMode).toBe(false);
  });
});

describe('dashboard IDs and Data', () => {
  it('random IDs stay in 1..2^53-1', () => {
    for (let i = 0; i < 2000; i++) {
      const id = randomDashboardId();
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(1);
      expect(id).toBeLessThanOrEqual(MAX_DASHBOARD_ID);
    }
  });

  it('parses numeric IDs and GUIDs', () => {
    expect(parseDashboardRef('42', true)).toEqual({ id: 42 });
    expect(parseDashboardRef(String(MAX_DASHBOARD_ID), false)).toEqual({ id: MAX_DASHBOARD_ID });
    expect(parseDashboardRef('A0B1C2D3-E4F5-4711-8899-AABBCCDDEEFF', true)).toEqual({ guid: 'a0b1c2d3-e4f5-4711-8899-aabbccddeeff' });
    for (const bad of ['0', '-1', '1e3', String(MAX_DASHBOARD_ID + 1), '', 'abc']) expect(() => parseDashboardRef(bad, true)).toThrow(AppError);
    expect(() => parseDashboardRef('a0b1c2d3-e4f5-4711-8899-aabbccddeeff', false)).toThrow(AppError);
  });

  it('any digit string either parses to a safe ID or is refused', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,20}$/), (s) => {
        try {
          const r = parseDashboardRef(s, false) as { id: number };
          return Number.isSafeInteger(r.id) && r.id >= 1;
        } catch (e) {
          return (e as AppError).status === 400;
        }
      }),
    );
  });

  it('normalizes Data', () => {
    expect(normalizeData(undefined)).toEqual({});
    expect(normalizeData(null)).toEqual({});
    expect(normalizeData('  ')).toEqual({});
    expect(normalizeData('{"tiles":[]}')).toEqual({ tiles: [] });
    expect(normalizeData({ a: 1 })).toEqual({ a: 1 });
    expect(() => normalizeData('{')).toThrow('Data must be valid JSON');
  });
});
