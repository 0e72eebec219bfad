import { AuthContext } from '../identity/auth.types';
import { AppError } from '../common/errors/app-error';
import { canAccessPreferencesOf, requirePreferencesAccess, requirePreferencesAdmin } from './preferences.access';
import { toUserPreferenceRecordDto } from './preferences.dto';

const auth = (uid: number, isAdmin = false): AuthContext => ({ uid, username: `u${uid}`, accountAdmin: isAdmin, isAdmin, gids: [] });

describe('preferences.access', () => {
  it('self or admin; anyone else 403', () => {
    expect(canAccessPreferencesOf(auth(5), 5)).toBe(true);
    expect(canAccessPreferencesOf(auth(5), 6)).toBe(false);
    expect(canAccessPreferencesOf(auth(1, true), 6)).toBe(true);
    expect(() => requirePreferencesAccess(auth(5), 6)).toThrow(AppError);
    try {
      requirePreferencesAccess(auth(5), 6);
    } catch (e) {
      expect((e as AppError).status).toBe(403);
    }
  });

  it('an admin account through a token (isAdmin false) is an ordinary user', () => {
    const tok: AuthContext = { ...auth(1), accountAdmin: true, token: { id: 't', capabilities: new Set(), expiresAt: null } };
    expect(canAccessPreferencesOf(tok, 6)).toBe(false);
    expect(() => requirePreferencesAdmin(tok)).toThrow(AppError);
    expect(() => requirePreferencesAdmin(auth(1, true))).not.toThrow();
  });

  it('admin records carry base64 of the stored JSON text', () => {
    const updated = new Date('2026-01-02T03:04:05.678Z');
    expect(toUserPreferenceRecordDto({ uid: 3, name: 'prefs', json: '{"a":"é"}', updatedAt: updated })).toEqual({
      Data: Buffer.from('{"a":"é"}').toString('base64'),
      Name: 'prefs',
      Synced: false,
      UID: 3,
      Updated: '2026-01-02T03:04:05.678Z',
    });
  });
});
