/** API tokens (/api/tokens, product-notes §1.3) as the console uses them. */
import { api } from '../api/client';
import { ApiToken, ApiTokenWithSecret, CapabilityDesc } from '../api/types';

/** What the console sends on create and edit; `expiresAt` null means "never expires". */
export interface TokenInput {
  name: string;
  description: string;
  capabilities: string[];
  /** absent on edit: keep the current expiry */
  expiresAt?: string | null;
}

const path = (id: string) => `/api/tokens/${encodeURIComponent(id)}`;

/** The caller's tokens; `all` (administrators): every user's. */
export async function listTokens(all: boolean): Promise<ApiToken[]> {
  return (await api<ApiToken[] | null>('/api/tokens', { query: all ? { admin: true } : undefined })) ?? [];
}

/** Every capability the caller may put on a token, described, in the product's order. */
export async function listCapabilities(): Promise<CapabilityDesc[]> {
  return (await api<CapabilityDesc[] | null>('/api/tokens/capabilities', { query: { detail: true } })) ?? [];
}

export const createToken = (input: TokenInput): Promise<ApiTokenWithSecret> => api<ApiTokenWithSecret>('/api/tokens', { method: 'POST', json: input });

export const updateToken = (id: string, input: TokenInput): Promise<ApiToken> => api<ApiToken>(path(id), { method: 'PUT', json: input });

/** "Refresh": a new secret with this expiry (null: never); the old secret stops working at once. */
export const refreshToken = (id: string, expiresAt: string | null): Promise<ApiTokenWithSecret> => api<ApiTokenWithSecret>(path(id), { method: 'PATCH', json: { expiresAt } });

export const deleteToken = (id: string): Promise<unknown> => api(path(id), { method: 'DELETE' });

/** Revokes every token of the caller; answers how many there were. */
export async function revokeAllMine(): Promise<number> {
  return (await api<{ Revoked: number }>('/api/tokens', { method: 'DELETE' })).Revoked;
}

/** The administrators' switch: may non-admin users use API tokens? */
export async function getNonAdminTokens(): Promise<boolean> {
  return (await api<{ NonAdminTokens: boolean }>('/api/tokens/settings')).NonAdminTokens;
}

export async function setNonAdminTokens(on: boolean): Promise<boolean> {
  return (await api<{ NonAdminTokens: boolean }>('/api/tokens/settings', { method: 'PUT', json: { NonAdminTokens: on } })).NonAdminTokens;
}
