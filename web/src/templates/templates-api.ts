/** Templates (/api/templates, README "Templates") as the console uses them. */
import { api } from '../api/client';
import { Template, TemplateInput, TemplateVariable } from '../api/types';
import { hasEveryWord } from '../ui/kept-filter';

/** `admin`: an administrator's view of every user's templates (`?admin=true`). */
const adminQuery = (admin?: boolean) => (admin ? { admin: true } : undefined);

/** The templates the person can use (own, shared with their groups, global), or every user's in admin mode. */
export async function listTemplates(admin?: boolean): Promise<Template[]> {
  return (await api<Template[] | null>('/api/templates', { query: adminQuery(admin) })) ?? [];
}

export const getTemplate = (id: string): Promise<Template> => api<Template>(`/api/templates/${encodeURIComponent(id)}`);

export const createTemplate = (input: TemplateInput): Promise<Template> => api<Template>('/api/templates', { method: 'POST', json: input });

export const updateTemplate = (t: Template, input: TemplateInput): Promise<Template> => api<Template>(`/api/templates/${t.ThingUUID}`, { method: 'PUT', json: input });

export const deleteTemplate = (t: Template): Promise<unknown> => api(`/api/templates/${t.ThingUUID}`, { method: 'DELETE' });

/**
 * The template's query with the variables filled in, by the service (the one place that fills
 * them); a variable left out takes its default. Launched then as any query the person typed.
 */
export async function fillTemplate(id: string, values: Record<string, string>): Promise<string> {
  return (await api<{ Query: string }>(`/api/templates/${encodeURIComponent(id)}/fill`, { method: 'POST', json: { Values: values } })).Query;
}

/** Does the template match the words typed in the filter box (name, labels, description, query, variables) and the chosen label? */
export function templateMatches(t: Template, text: string, label?: string): boolean {
  const vars = t.Contents.variables.flatMap((v) => [v.name, v.label]);
  return hasEveryWord([t.Name, t.Description, t.Contents.query, ...vars, ...(t.Labels ?? [])], text, t.Labels, label);
}

/** `%%NAME%%` in a query: the product's way of writing a variable (the service takes any text without spaces). */
const PLACEHOLDER = /%%[A-Za-z0-9_.-]{1,120}%%/g;

/** A variable with nothing but its name. */
export const blankVariable = (name = ''): TemplateVariable => ({ name, label: '', description: '', required: false, defaultValue: '', previewValue: null });

/** The variables of a query: those already described, then a new one for each `%%NAME%%` written in the query but not yet described. */
export function variablesFromQuery(query: string, known: readonly TemplateVariable[] = []): TemplateVariable[] {
  const names = new Set(known.map((v) => v.name));
  const found = [...new Set(query.match(PLACEHOLDER) ?? [])].filter((n) => !names.has(n));
  return [...known, ...found.map((name) => ({ ...blankVariable(name), label: labelOf(name), required: true }))];
}

/** "%%SRC_IP%%" -> "Src ip": a first label for a variable found in a query. */
function labelOf(name: string): string {
  const words = name
    .replace(/%%/g, '')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

/** The query on one line, cut to `max` characters, for the list. */
export function queryPreview(query: string, max = 120): string {
  const line = query.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
