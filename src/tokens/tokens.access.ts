import { AuthContext } from '../auth/auth.types';
import { Capability, CAPABILITIES, parseCapability } from '../auth/capabilities';
import { badRequest, forbidden, notFound } from '../common/errors/app-error';
import { TokenRow } from './tokens.repository';

/**
 * The one place that decides who may do what with API tokens.
 * - The token API: admins always; non-admins while the admin switch allows it (contract: Authentication 8).
 *   An admin's own token counts as the admin here (it still never gets admin rights elsewhere).
 * - One token by ID: its owner, or an admin signed in with a session (any token, with or without
 *   `?admin=true`). Anyone else gets 404, so token IDs of others are not revealed.
 * - Everyone's tokens (`GET /api/tokens?admin=true`): admins signed in with a session only.
 * - Capabilities a caller may grant: those of the USER (never limited to, nor widened by, the
 *   token that makes the request: tokens are not transitive). Every user holds every capability
 *   in this service (there are no per-user capability grants); admin-only routes stay out of
 *   reach of every token whatever it holds.
 */
export function assertTokenApiAllowed(auth: AuthContext, nonAdminTokens: boolean): void {
  if (!auth.accountAdmin && !nonAdminTokens) throw forbidden('An admin has turned off API tokens for non-admin users');
}

export function assertCanListAll(auth: AuthContext): void {
  if (!auth.isAdmin) throw forbidden("Only admins signed in with a session may list every user's tokens (admin=true)");
}

/** The token if the caller may read and change it; 404 otherwise. */
export function requireTokenAccess(auth: AuthContext, token: TokenRow | undefined): TokenRow {
  if (!token || !(auth.isAdmin || token.uid === auth.uid)) throw notFound('Token');
  return token;
}

/** What the user behind the request may put on a token, in canonical order. */
export function grantableCapabilities(_auth: AuthContext): Capability[] {
  return [...CAPABILITIES];
}

/** Case-insensitive names -> canonical names, duplicates removed, canonical order; unknown: 400, not grantable: 403. */
export function parseGrantedCapabilities(auth: AuthContext, names: string[]): Capability[] {
  const unknown = names.filter((n) => parseCapability(n) === undefined);
  if (unknown.length)
    throw badRequest(
      `Unknown capabilities: ${unknown
        .slice(0, 10)
        .map((n) => JSON.stringify(n.slice(0, 64)))
        .join(', ')}`,
    );
  const wanted = new Set(names.map((n) => parseCapability(n) as Capability));
  const grantable = new Set(grantableCapabilities(auth));
  const refused = [...wanted].filter((c) => !grantable.has(c));
  if (refused.length) throw forbidden(`You may not grant: ${refused.join(', ')}`);
  return CAPABILITIES.filter((c) => wanted.has(c));
}
