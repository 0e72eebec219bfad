/** Dashboards (/api/dashboards, contract "Dashboards") as the console uses them. */
import { api, ApiError, apiResponse } from '../api/client';
import { hasEveryWord } from '../ui/kept-filter';

import type { Dashboard } from '../api/types';

export type { Dashboard };

export interface NewDashboard {
  Name: string;
  Description?: string;
  GIDs?: number[];
  Global?: boolean;
  Labels?: string[];
  Data: unknown;
}

/** A dashboard as read, with the version the service gave it (its ETag). */
export interface Versioned {
  dashboard: Dashboard;
  etag?: string;
}

/** The service answered 412: someone saved the dashboard after it was loaded here. */
export class ConflictError extends ApiError {}

/** `admin`: an administrator's view of every user's dashboards (`?admin=true`). */
export async function listDashboards(admin?: boolean): Promise<Dashboard[]> {
  return (await api<Dashboard[] | null>('/api/dashboards', { query: admin ? { admin: true } : undefined })) ?? [];
}

export const createDashboard = (d: NewDashboard): Promise<number> => api<number>('/api/dashboards', { method: 'POST', json: d });

export const deleteDashboard = (id: number): Promise<unknown> => api(`/api/dashboards/${id}`, { method: 'DELETE' });

/** GET and PUT of one dashboard, with its ETag; a 412 (`If-Match` no longer matches) is a ConflictError. */
async function versionedCall(path: string, init: { method: 'GET' | 'PUT'; json?: unknown; ifMatch?: string }): Promise<Versioned> {
  try {
    const res = await apiResponse<Dashboard>(path, { method: init.method, json: init.json, headers: init.ifMatch ? { 'If-Match': init.ifMatch } : undefined });
    return { dashboard: res.body, etag: res.headers.get('ETag') ?? undefined };
  } catch (err) {
    if (err instanceof ApiError && err.status === 412) throw new ConflictError(412, err.message, err.body);
    throw err;
  }
}

/** `ref`: the numeric ID or the GUID. */
export const getDashboard = (ref: string | number): Promise<Versioned> => versionedCall(`/api/dashboards/${encodeURIComponent(String(ref))}`, { method: 'GET' });

/**
 * Saves the WHOLE structure as fetched, with the changes (contract rule 6). With `etag`, the
 * service refuses (ConflictError) when someone saved since; without, it overwrites.
 */
export const saveDashboard = (d: Dashboard, etag?: string): Promise<Versioned> => versionedCall(`/api/dashboards/${d.ID}`, { method: 'PUT', json: d, ifMatch: etag });

/** What an export holds: the dashboard without what belongs to this service (IDs, owner, dates). */
export function exportable(d: Dashboard): NewDashboard & { GUID: string } {
  return { Name: d.Name, Description: d.Description, Labels: d.Labels ?? [], GUID: d.GUID, Data: d.Data };
}

/** Reads an exported (or the product's) dashboard JSON for import; throws with the reason. */
export function parseImport(text: string): NewDashboard & { GUID?: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new Error(`The file is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (Array.isArray(v)) {
    if (v.length !== 1) throw new Error(`The file holds ${v.length} dashboards; import one at a time.`);
    v = v[0];
  }
  if (typeof v !== 'object' || v === null) throw new Error('The file does not hold a dashboard (a JSON object with Name and Data).');
  const o = v as Record<string, unknown>;
  if (typeof o.Name !== 'string' || !o.Name.trim()) throw new Error('The dashboard in the file has no Name.');
  if (!('Data' in o)) throw new Error('The dashboard in the file has no Data.');
  const labels = Array.isArray(o.Labels) ? o.Labels.filter((l): l is string => typeof l === 'string') : [];
  return {
    Name: o.Name,
    Description: typeof o.Description === 'string' ? o.Description : '',
    Labels: labels,
    Data: o.Data,
    ...(typeof o.GUID === 'string' ? { GUID: o.GUID } : {}),
  };
}

/** Words typed in the filter (each in the name, description or labels) and the chosen label. */
export function dashboardMatches(d: Dashboard, text: string, label?: string): boolean {
  return hasEveryWord([d.Name, d.Description, ...(d.Labels ?? [])], text, d.Labels, label);
}

/** A file name for an export: "Web traffic" -> "web-traffic.dashboard.json". */
export function exportFileName(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'dashboard'}.dashboard.json`;
}
