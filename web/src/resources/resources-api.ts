/** The resources API (/api/resources, contract "Resources"): named contents addressed by GUID. */
import { api } from '../api/client';
import { upload, UploadProgress } from '../common-upload/upload';
import { hasText } from '../ui/kept-filter';

import type { ContentTypeAnswer, ResourceMeta } from '../api/types';

export type { ContentTypeAnswer, ResourceMeta };

/** What the console writes on create and on a metadata update. */
export interface ResourceInput {
  ResourceName: string;
  Description: string;
  GroupACL: number[];
  /** administrators only */
  Global?: boolean;
}

const base = (guid: string) => `/api/resources/${encodeURIComponent(guid)}`;

export const resourceRawUrl = (guid: string): string => `${base(guid)}/raw`;

export const listResources = (admin: boolean): Promise<ResourceMeta[]> =>
  api<ResourceMeta[] | null>('/api/resources', { query: { admin: admin || undefined } }).then((l) => l ?? []);

export const createResource = (input: ResourceInput): Promise<ResourceMeta> => api<ResourceMeta>('/api/resources', { method: 'POST', json: input });

/** PUT of the fetched structure with the changed fields (contract rule 1: the others are ignored). */
export const updateResource = (r: ResourceMeta, input: ResourceInput): Promise<ResourceMeta> => api<ResourceMeta>(base(r.GUID), { method: 'PUT', json: { ...r, ...input } });

export const deleteResource = (guid: string): Promise<unknown> => api(base(guid), { method: 'DELETE' });

export const cloneResource = (guid: string, name: string): Promise<ResourceMeta> => api<ResourceMeta>(`${base(guid)}/clone`, { method: 'POST', json: { Name: name } });

/** At least 128 bytes are returned (below that the service uses 512). */
export const resourceContentType = (guid: string, bytes = 512): Promise<ContentTypeAnswer> => api<ContentTypeAnswer>(`${base(guid)}/contenttype`, { query: { bytes } });

export function uploadResource(guid: string, file: File, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal): Promise<ResourceMeta> {
  const form = new FormData();
  form.append('file', file, file.name || 'upload');
  return upload<ResourceMeta>({ method: 'PUT', url: resourceRawUrl(guid), form, onProgress, signal });
}

/** Matches the filter text against name, description and GUID (case-insensitive). */
export function resourceMatches(r: ResourceMeta, text: string): boolean {
  return hasText([r.ResourceName, r.Description, r.GUID], text);
}

/** A free name for a clone: "x (copy)", "x (copy 2)", … among the names in use. */
export function cloneName(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const stem = name.replace(/ \(copy(?: \d+)?\)$/, '');
  for (let i = 1; ; i++) {
    const candidate = `${stem} (copy${i > 1 ? ` ${i}` : ''})`;
    if (!used.has(candidate)) return candidate.slice(0, 255);
  }
}
