import { AuthContext } from '../identity/auth.types';
import { refusal } from '../common/errors/app-error';

/**
 * The one place that decides who may touch a user's preferences: the user themself, or an
 * admin (any user). Everyone else gets 403 (contract: Errors). Existence of the user is
 * checked before this (404 first, for admins too).
 */
export function canAccessPreferencesOf(auth: AuthContext, uid: number): boolean {
  return auth.isAdmin || auth.uid === uid;
}

export function requirePreferencesAccess(auth: AuthContext, uid: number): void {
  if (!canAccessPreferencesOf(auth, uid)) throw refusal('OWN_PREFERENCES_ONLY');
}

/** The admin listing of every user's records. */
export function requirePreferencesAdmin(auth: AuthContext): void {
  if (!auth.isAdmin) throw refusal('ADMIN_ONLY');
}
