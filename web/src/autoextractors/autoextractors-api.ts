/** Autoextractors (/api/autoextractors, README "Autoextractors and ax") as the console uses them. */
import { api } from '../api/client';
import { Autoextractor, AutoextractorInput, AxTestResult } from '../api/types';
import { hasEveryWord } from '../ui/kept-filter';

/** `admin`: an administrator's view of every user's autoextractors (`?admin=true`). */
const adminQuery = (admin?: boolean) => (admin ? { admin: true } : undefined);

/** The autoextractors the person can use (own, shared with their groups, global), or every user's in admin mode. */
export async function listAutoextractors(admin?: boolean): Promise<Autoextractor[]> {
  return (await api<Autoextractor[] | null>('/api/autoextractors', { query: adminQuery(admin) })) ?? [];
}

/** The modules a definition may name. */
export const listEngines = (): Promise<string[]> => api<string[]>('/api/autoextractors/engines');

/** POST answers the new definition's UUID. */
export const createAutoextractor = (input: AutoextractorInput): Promise<string> => api<string>('/api/autoextractors', { method: 'POST', json: input });

export const updateAutoextractor = (ax: Autoextractor, input: AutoextractorInput): Promise<Autoextractor> =>
  api<Autoextractor>(`/api/autoextractors/${ax.UUID}`, { method: 'PUT', json: input });

export const deleteAutoextractor = (ax: Autoextractor): Promise<unknown> => api(`/api/autoextractors/${ax.UUID}`, { method: 'DELETE' });

/** The definition as it stands in the form, tried on `sample` (one entry a line); `uuid`: the one it would replace. */
export const testAutoextractor = (input: AutoextractorInput, sample: string, uuid?: string): Promise<AxTestResult> =>
  api<AxTestResult>('/api/autoextractors/test', { method: 'POST', json: { ...input, Sample: sample, ...(uuid && { UUID: uuid }) } });

/** Does it match the words typed in the filter box (name, tags, engine, labels, description, params) and the chosen label? */
export function autoextractorMatches(a: Autoextractor, text: string, label?: string): boolean {
  return hasEveryWord([a.Name, a.Desc, a.Module, a.Params, ...a.Tags, ...(a.Labels ?? [])], text, a.Labels, label);
}

/** Tags typed as a list: commas or spaces between them. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** What Params holds for each engine, in the form's words. */
export const PARAMS_HINT: Record<string, string> = {
  csv: 'The column names in order, separated by commas (a CSV header); leave a name empty to skip its column.',
  fields: 'The field names in order, separated by commas; the delimiter goes in Options (-d "\\t").',
  regex: 'A regular expression whose named groups (?P<name>…) are the fields.',
  json: 'The fields as in the json module: paths, each optionally "as name" (user.name as user).',
  kv: 'The keys to extract, as in the kv module (user status).',
  syslog: 'The syslog fields to extract (Hostname Appname Message…).',
  cef: 'The CEF keys to extract (Version DeviceVendor src dst…).',
  xml: 'The XML paths to extract, each optionally "as name".',
};

/** One line, cut to `max` characters, for the list. */
export function preview(text: string, max = 100): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
