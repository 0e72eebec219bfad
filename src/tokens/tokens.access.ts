import { AuthContext } from '../identity/auth.types';
import { Capability, CAPABILITIES, parseCapability } from '../identity/capabilities';
import { refusal } from '../common/errors/app-error';
import { TokenRow } from './tokens.repository';

/**
 * The one place that decides who may do what with API tokens.
 * - The token API: admins always; non-admins while the admin switch allows it (contract: Authentication 8).
 *   An admin's own token counts as the admin here (it still never gets admin rights elsewhere).
 * - One token by ID: its owner, or an admin signed in with a session (any token, with or without
 *   `?admin=true`). Anyone else gets 404, so token IDs of others are not revealed.
 * - Everyone's tokens (`GET /api/tokens?admin=true`): admins signed in with a session only.
 * - Capabilities a caller may grant: those the caller holds on this request. Signed in with a
 *   session, every capability the user has (contract, Authentication 7; every user holds every
 *   capability here, there are no per-user grants). Through an API token, only the token's own
 *   (contract, Authentication 5: a token only restricts what its user may do), so a token can
 *   never mint or change a token into a wider one. Tokens are still not transitive: a new token
 *   gets exactly what is asked for, nothing from its maker. Admin-only routes stay out of reach
 *   of every token whatever it holds.
 * - Expiry through a token: nothing a token creates, changes or refreshes may outlive it.
 * - A token may change or refresh only tokens within its own rights (capabilities and expiry),
 *   itself included: refreshing a wider token would hand it that token's new secret.
 */
export function assertTokenApiAllowed(auth: AuthContext, nonAdminTokens: boolean): void {
  if (!auth.accountAdmin && !nonAdminTokens) throw refusal('TOKENS_OFF_FOR_NON_ADMINS');
}

export function assertCanListAll(auth: AuthContext): void {
  if (!auth.isAdmin) throw refusal('TOKENS_LIST_ALL_ADMIN_ONLY');
}

/** The token if the caller may read and change it; 404 otherwise. */
export function requireTokenAccess(auth: AuthContext, token: TokenRow | undefined): TokenRow {
  if (!token || !(auth.isAdmin || token.uid === auth.uid)) throw refusal('TOKEN_NOT_FOUND');
  return token;
}

/** What the caller may put on a token, in canonical order: a token's own capabilities, else all. */
export function grantableCapabilities(auth: AuthContext): Capability[] {
  return auth.token ? CAPABILITIES.filter((c) => auth.token!.capabilities.has(c)) : [...CAPABILITIES];
}

/** The latest expiry the caller may give a token: its own when a token makes the request; undefined: no bound. */
export function latestGrantableExpiry(auth: AuthContext): Date | null | undefined {
  return auth.token ? auth.token.expiresAt : undefined;
}

/**
 * An expiry a token may set: absent stays absent (the caller decides what that means), a value
 * within the token's own lifetime is kept, a later one or "never" is 403.
 */
export function requireExpiryWithinCaller(auth: AuthContext, expiresAt: Date | null | undefined): void {
  const bound = latestGrantableExpiry(auth);
  if (!bound || expiresAt === undefined) return;
  if (expiresAt === null || expiresAt.getTime() > bound.getTime()) {
    throw refusal('TOKEN_OUTLIVES_TOKEN', bound.toISOString());
  }
}

/** A token may change or refresh only tokens within its own rights (capabilities and expiry). */
export function requireWithinCaller(auth: AuthContext, target: TokenRow): TokenRow {
  if (!auth.token) return target;
  const mine = auth.token.capabilities;
  const wider = target.capabilities.filter((c) => {
    const cap = parseCapability(c);
    return cap === undefined || !mine.has(cap);
  });
  const bound = auth.token.expiresAt;
  const outlives = bound !== null && (target.expiresAt === null || target.expiresAt.getTime() > bound.getTime());
  if (wider.length || outlives) throw refusal('TOKEN_WIDER_THAN_TOKEN');
  return target;
}

/** Case-insensitive names -> canonical names, duplicates removed, canonical order; unknown: 400, not grantable: 403. */
export function parseGrantedCapabilities(auth: AuthContext, names: string[]): Capability[] {
  const unknown = names.filter((n) => parseCapability(n) === undefined);
  if (unknown.length)
    throw refusal(
      'UNKNOWN_CAPABILITIES',
      unknown
        .slice(0, 10)
        .map((n) => JSON.stringify(n.slice(0, 64)))
        .join(', '),
    );
  const wanted = new Set(names.map((n) => parseCapability(n) as Capability));
  const grantable = new Set(grantableCapabilities(auth));
  const refused = [...wanted].filter((c) => !grantable.has(c));
  if (refused.length) throw auth.token ? refusal('TOKEN_LACKS_CAPABILITIES', refused.join(', ')) : refusal('CAPABILITIES_NOT_GRANTABLE', refused.join(', '));
  return CAPABILITIES.filter((c) => wanted.has(c));
}
