import { AuthContext } from '../identity/auth.types';
import { CAPABILITIES } from '../identity/capabilities';
import { AppError } from '../common/errors/app-error';
import { assertCanListAll, assertTokenApiAllowed, parseGrantedCapabilities, requireTokenAccess } from './tokens.access';
import { TokenRow } from './tokens.repository';
import { parseExpiry } from './tokens.service';

const user: AuthContext = { uid: 7, username: 'u', accountAdmin: false, isAdmin: false, gids: [] };
const admin: AuthContext = { uid: 1, username: 'admin', accountAdmin: true, isAdmin: true, gids: [] };
const adminToken: AuthContext = { ...admin, isAdmin: false, token: { id: 'x', capabilities: new Set(), expiresAt: null } };
const row = (uid: number): TokenRow => ({ id: 'id', uid, name: 'n', description: '', capabilities: [], createdAt: new Date(), expiresAt: null, lastUsedAt: null });
const status = (fn: () => unknown): number | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as AppError).status;
  }
};

describe('token access rules', () => {
  it('parses capabilities case-insensitively, removes duplicates, keeps canonical order, refuses unknown ones', () => {
    expect(parseGrantedCapabilities(user, ['tokenwrite', 'LISTUSERS', 'Search', 'listUsers'])).toEqual(['Search', 'ListUsers', 'TokenWrite']);
    expect(parseGrantedCapabilities(user, [])).toEqual([]);
    expect(parseGrantedCapabilities(user, [...CAPABILITIES].reverse())).toEqual([...CAPABILITIES]);
    expect(status(() => parseGrantedCapabilities(user, ['Search', 'Fly']))).toBe(400);
    expect(status(() => parseGrantedCapabilities(user, ['__proto__']))).toBe(400);
  });

  it("owner or a signed-in admin act on a token; others (an admin's token included) get 404", () => {
    expect(requireTokenAccess(user, row(7)).uid).toBe(7);
    expect(requireTokenAccess(admin, row(7)).uid).toBe(7);
    expect(status(() => requireTokenAccess(user, row(8)))).toBe(404);
    expect(status(() => requireTokenAccess(adminToken, row(7)))).toBe(404);
    expect(status(() => requireTokenAccess(admin, undefined))).toBe(404);
    expect(status(() => assertCanListAll(adminToken))).toBe(403);
    expect(status(() => assertCanListAll(admin))).toBeUndefined();
  });

  it('the admin switch bars non-admins only', () => {
    expect(status(() => assertTokenApiAllowed(user, false))).toBe(403);
    expect(status(() => assertTokenApiAllowed(user, true))).toBeUndefined();
    expect(status(() => assertTokenApiAllowed(adminToken, false))).toBeUndefined();
  });
});

describe('parseExpiry', () => {
  it('absent keeps, null and the zero time mean never', () => {
    expect(parseExpiry(undefined)).toBeUndefined();
    expect(parseExpiry(null)).toBeNull();
    expect(parseExpiry('0001-01-01T00:00:00Z')).toBeNull();
    expect(parseExpiry('0001-01-01T00:00:00.000Z')).toBeNull();
  });

  it('accepts RFC 3339 in the future, with offsets and nanoseconds', () => {
    expect(parseExpiry('2999-01-02T03:04:05.123456789Z')?.toISOString()).toBe('2999-01-02T03:04:05.123Z');
    expect(parseExpiry('2999-01-02T03:04:05+02:00')?.toISOString()).toBe('2999-01-02T01:04:05.000Z');
  });

  it('refuses the past, malformed values, impossible days and the far future with 400', () => {
    for (const v of ['2000-01-01T00:00:00Z', 'tomorrow', '2999-02-30T00:00:00Z', '2999-13-01T00:00:00Z', '2999-01-01', '+275760-01-01T00:00:00Z', '10000-01-01T00:00:00Z', '']) {
      expect({ v, status: status(() => parseExpiry(v)) }).toEqual({ v, status: 400 });
    }
  });
});
