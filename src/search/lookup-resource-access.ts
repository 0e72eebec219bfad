/**
 * What a search needs of the resources feature: the engine (L3) names no feature (L4), so the
 * resources feature provides its `ResourceSearchAccess` under this token (resources.module.ts, a
 * global module), under the same rules as the resources API.
 */
import { AuthContext } from '../identity/auth.types';

export const LOOKUP_RESOURCE_ACCESS = Symbol('LOOKUP_RESOURCE_ACCESS');

/** A resource as a search sees it: its current content (null: empty) and its size in bytes. */
export interface LookupResource {
  contentId: string | null;
  size: number;
}

export interface LookupResourceAccess<R extends LookupResource = LookupResource> {
  /** API tokens reach resources from a search only with the capability the resources API wants. */
  requireCapability(auth: AuthContext, cap: 'ResourceRead' | 'ResourceWrite'): void;
  /** The resource named by GUID or name when the caller may read it; null otherwise (missing and unreadable look the same). */
  find(auth: AuthContext, ref: string): Promise<R | null>;
  /** The contents of `row`, null if it became unreadable. */
  read(auth: AuthContext, row: R): Promise<{ bytes: Buffer } | null>;
  /** `table -save <name>`: a new version of the caller's own resource of that name, or a new one. */
  saveTable(auth: AuthContext, name: string, bytes: Buffer): Promise<unknown>;
}
