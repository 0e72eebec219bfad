/** Playbooks (/api/playbooks, README "Playbooks") as the console uses them. */
import { api, apiRaw } from '../api/client';
import { Playbook, PlaybookInput, UserFile } from '../api/types';
import { attachmentsOf } from './markdown';
import { hasEveryWord } from '../ui/kept-filter';

export type { Playbook, PlaybookInput };

const adminQuery = (admin?: boolean) => (admin ? { admin: true } : undefined);

/** The playbooks the person can read (own, shared with their groups, global), or every user's in admin mode; without their Body. */
export async function listPlaybooks(admin?: boolean): Promise<Playbook[]> {
  return (await api<Playbook[] | null>('/api/playbooks', { query: adminQuery(admin) })) ?? [];
}

export const getPlaybook = (id: string, signal?: AbortSignal): Promise<Playbook> => api<Playbook>(`/api/playbooks/${encodeURIComponent(id)}`, { signal });

/** POST answers the new playbook's UUID. */
export const createPlaybook = (input: PlaybookInput): Promise<string> => api<string>('/api/playbooks', { method: 'POST', json: input });

export const updatePlaybook = (uuid: string, input: PlaybookInput): Promise<Playbook> =>
  api<Playbook>(`/api/playbooks/${encodeURIComponent(uuid)}`, { method: 'PUT', json: input });

export const deletePlaybook = (p: Playbook): Promise<unknown> => api(`/api/playbooks/${encodeURIComponent(p.UUID)}`, { method: 'DELETE' });

/** The markdown as the API carries it: base64 of its UTF-8 bytes. */
export function encodeBody(markdown: string): string {
  const bytes = new TextEncoder().encode(markdown);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** The markdown of a Body (absent: empty); bytes that are not UTF-8 show as U+FFFD. */
export function decodeBody(body: string | undefined): string {
  if (!body) return '';
  const bin = atob(body);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** Does the playbook match the words typed in the filter box (name, description, labels) and the chosen label? */
export function playbookMatches(p: Playbook, text: string, label?: string): boolean {
  return hasEveryWord([p.Name, p.Desc, p.Author?.Name ?? '', ...(p.Labels ?? [])], text, p.Labels, label);
}

/**
 * An attached image (a user file) as an object URL for an <img>: the console's calls carry the
 * session through a header an <img> cannot send. Rejects with the service's words (404: the file
 * is gone, or not shared with the reader).
 */
export async function fileObjectUrl(guid: string, signal?: AbortSignal): Promise<string> {
  const res = await apiRaw(`/api/files/${encodeURIComponent(guid)}`, { signal });
  return URL.createObjectURL(await res.blob());
}

/**
 * Sharing a playbook shares the images it shows that the person owns: each such user file gains
 * the playbook's groups (and Global, when an administrator made the playbook global). Files of
 * other owners are left as they are (their readers see a note where the image would be). Answers
 * how many files were shared further.
 */
export async function shareAttachments(markdown: string, uid: number, gids: number[], global: boolean): Promise<number> {
  let shared = 0;
  for (const guid of attachmentsOf(markdown)) {
    const f = await api<UserFile>(`/api/files/${encodeURIComponent(guid)}/details`).catch(() => undefined);
    if (!f || f.UID !== uid) continue;
    const missing = gids.filter((g) => !f.GIDs.includes(g));
    if (!missing.length && (!global || f.Global)) continue;
    await api(`/api/files/${encodeURIComponent(guid)}`, { method: 'PATCH', json: { GIDs: [...f.GIDs, ...missing], ...(global && { Global: true }) } });
    shared++;
  }
  return shared;
}
