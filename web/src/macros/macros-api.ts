/** Macros (/api/macros, README "Macros") as the console uses them. */
import { api } from '../api/client';
import { Macro, MacroInput } from '../api/types';
import { hasEveryWord } from '../ui/kept-filter';

/** `admin`: an administrator's view of every user's macros (`?admin=true`). */
const adminQuery = (admin?: boolean) => (admin ? { admin: true } : undefined);

/** The macros the person can use (own, shared with their groups, global), or every user's in admin mode. */
export async function listMacros(admin?: boolean): Promise<Macro[]> {
  return (await api<Macro[] | null>('/api/macros', { query: adminQuery(admin) })) ?? [];
}

/** POST answers the new macro's ID (a bare number, as the product does). */
export const createMacro = (input: MacroInput): Promise<number> => api<number>('/api/macros', { method: 'POST', json: input });

export const updateMacro = (macro: Macro, input: MacroInput): Promise<Macro> => api<Macro>(`/api/macros/${macro.ID}`, { method: 'PUT', json: input });

export const deleteMacro = (macro: Macro): Promise<unknown> => api(`/api/macros/${macro.ID}`, { method: 'DELETE' });

/** Does the macro match the words typed in the filter box (in name, labels, description or expansion) and the chosen label? */
export function macroMatches(m: Macro, text: string, label?: string): boolean {
  return hasEveryWord([`$${m.Name}`, m.Description, m.Expansion, ...(m.Labels ?? [])], text, m.Labels, label);
}

/** The expansion on one line, cut to `max` characters, for the list. */
export function expansionPreview(expansion: string, max = 120): string {
  const line = expansion.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
