/** Scheduled searches (/api/scheduledsearches, README "Scheduled searches") as the console uses them. */
import cronstrue from 'cronstrue';
import { api } from '../api/client';
import { NextRuns, ScheduledSearch, ScheduledSearchRun } from '../api/types';
import { hasEveryWord } from '../ui/kept-filter';

/** A scheduled search as the list pages need it (their owner as `UID`). */
export type ScheduledRow = ScheduledSearch & { UID: number };

/** What the dialog sends (absent fields keep their value on an update). */
export interface ScheduledInput {
  Name: string;
  Description: string;
  Schedule: string;
  Timezone: string;
  SearchString: string;
  Duration: number;
  BackfillEnabled: boolean;
  Disabled: boolean;
  Labels: string[];
  Groups: number[];
  Global?: boolean;
}

/** The scheduled searches the person can see (own, shared with their groups, global), or every user's in admin mode. */
export async function listScheduled(admin?: boolean): Promise<ScheduledRow[]> {
  const list = (await api<ScheduledSearch[] | null>('/api/scheduledsearches', { query: admin ? { admin: true } : undefined })) ?? [];
  return list.map((s) => ({ ...s, UID: s.Owner }));
}

export const createScheduled = (input: ScheduledInput): Promise<number> => api<number>('/api/scheduledsearches', { method: 'POST', json: input });
export const updateScheduled = (id: number, input: Partial<ScheduledInput>): Promise<ScheduledSearch> =>
  api<ScheduledSearch>(`/api/scheduledsearches/${id}`, { method: 'PUT', json: input });
export const deleteScheduled = (id: number): Promise<unknown> => api(`/api/scheduledsearches/${id}`, { method: 'DELETE' });
/** The product's "Schedule immediately": one run as soon as possible, besides the schedule. */
export const runNow = (id: number): Promise<ScheduledSearch> => updateScheduled(id, { OneShot: true } as Partial<ScheduledInput>);
export const clearError = (id: number): Promise<unknown> => api(`/api/scheduledsearches/${id}/error`, { method: 'DELETE' });
export const listRuns = (id: number): Promise<ScheduledSearchRun[]> => api<ScheduledSearchRun[]>(`/api/scheduledsearches/${id}/runs`);
export const nextRuns = (schedule: string, timezone: string, signal?: AbortSignal): Promise<NextRuns> =>
  api<NextRuns>('/api/scheduledsearches/nextruns', { query: { Schedule: schedule, Timezone: timezone, count: 3 }, signal });

export function scheduledMatches(s: ScheduledRow, text: string, label?: string): boolean {
  return hasEveryWord([s.Name, s.Description, s.SearchString, s.Schedule, ...(s.Labels ?? [])], text, s.Labels, label);
}

/** The schedule in words ("At 08:30, Monday through Friday"), or undefined when it cannot be read. */
export function scheduleInWords(spec: string): string | undefined {
  const text = spec.trim();
  const shorthand: Record<string, string> = {
    '@hourly': 'Every hour',
    '@daily': 'Every day at midnight',
    '@midnight': 'Every day at midnight',
    '@weekly': 'Every Sunday at midnight',
    '@monthly': 'On the first of every month at midnight',
    '@yearly': 'Every 1 January at midnight',
    '@annually': 'Every 1 January at midnight',
  };
  if (text.startsWith('@')) return shorthand[text.toLowerCase()];
  try {
    return cronstrue.toString(text, { use24HourTimeFormat: true, throwExceptionOnParseError: true, verbose: false });
  } catch {
    return undefined;
  }
}

/** "never" for Go's zero time. */
export const ranAt = (iso: string): string | undefined => (iso.startsWith('0001-') ? undefined : iso);

/** The common Durations, in seconds back from each slot. */
export const DURATIONS: Array<[number, string]> = [
  [-300, '5 minutes'],
  [-900, '15 minutes'],
  [-3600, '1 hour'],
  [-4 * 3600, '4 hours'],
  [-86400, '24 hours'],
  [-7 * 86400, '7 days'],
];

export function durationWords(seconds: number): string {
  const hit = DURATIONS.find(([s]) => s === seconds);
  if (hit) return hit[1];
  const s = Math.abs(seconds);
  return s % 3600 === 0 ? `${s / 3600} hours` : s % 60 === 0 ? `${s / 60} minutes` : `${s} seconds`;
}
