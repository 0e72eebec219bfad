/** The user files API (/api/files, contract "User files"): small files addressed by GUID (ThingUUID in admin mode). */
import { api, withQuery } from '../api/client';
import { cleanFileName } from '../common-upload/download';
import { upload, UploadProgress } from '../common-upload/upload';
import { hasText } from '../ui/kept-filter';
export { parseLabels } from '../library/library-api';

import type { UserFile } from '../api/types';

export type { UserFile };

/** The metadata the console writes (detailed upload format's `meta`, and PATCH). */
export interface UserFileInput {
  Name: string;
  Desc: string;
  Labels: string[];
  GIDs: number[];
  /** administrators only */
  Global?: boolean;
}

/** The path ID of a file: its GUID, or its ThingUUID in admin mode (GUIDs are not unique). */
const idOf = (f: UserFile, admin: boolean) => (admin ? f.ThingUUID : f.GUID);
const query = (admin: boolean) => ({ admin: admin || undefined });

export const fileUrl = (f: UserFile, admin: boolean): string => withQuery(`/api/files/${encodeURIComponent(idOf(f, admin))}`, query(admin));

export const listFiles = (admin: boolean): Promise<UserFile[]> => api<UserFile[] | null>('/api/files', { query: query(admin) }).then((l) => l ?? []);

export function createFile(file: File, meta: UserFileInput, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal): Promise<UserFile> {
  const form = new FormData();
  form.append('meta', JSON.stringify(meta));
  form.append('file', file, file.name || 'upload');
  return upload<UserFile>({ method: 'POST', url: '/api/files', form, onProgress, signal });
}

/** Replaces the contents; only the `file` part is honoured. */
export function replaceFile(f: UserFile, admin: boolean, file: File, onProgress?: (p: UploadProgress) => void, signal?: AbortSignal): Promise<UserFile> {
  const form = new FormData();
  form.append('file', file, file.name || 'upload');
  return upload<UserFile>({ method: 'POST', url: fileUrl(f, admin), form, onProgress, signal });
}

export const updateFile = (f: UserFile, admin: boolean, meta: UserFileInput): Promise<UserFile> =>
  api<UserFile>(`/api/files/${encodeURIComponent(idOf(f, admin))}`, { method: 'PATCH', query: query(admin), json: meta });

export const deleteFile = (f: UserFile, admin: boolean): Promise<unknown> => api(`/api/files/${encodeURIComponent(idOf(f, admin))}`, { method: 'DELETE', query: query(admin) });

/** Name, description, labels, type and GUID against the filter text (case-insensitive). */
export function fileMatches(f: UserFile, text: string): boolean {
  return hasText([f.Name, f.Desc, f.Type, f.GUID, ...(f.Labels ?? [])], text);
}

/** A display name from a picked file's name: the service refuses "/", "\" and control characters. */
export function nameFromFile(name: string): string {
  return cleanFileName(name).slice(0, 255);
}
