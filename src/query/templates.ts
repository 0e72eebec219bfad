/**
 * Search templates: a query with variables (the product's templates). A variable's `name` is the
 * exact text that stands for it in the query, as the product's editor takes it: any text without
 * whitespace, by convention `%%NAME%%` (the product also shows `__IPADDR__`). Running a template
 * replaces every occurrence of each name by the value given for it. Pure text, like macros: the
 * filled query is then launched like any query the person typed, with their rights and limits,
 * so a template reads nothing its user could not.
 *
 * - Values are inserted raw, as text (the product does the same): a value may hold quotes, spaces
 *   or `|` and changes the query exactly as typing it there would.
 * - One pass over the query: a value is never searched for other variables' names, so a value that
 *   contains `%%OTHER%%` stays as given; where names overlap the longest wins.
 * - A variable without a value takes its default value; a required one still empty is a 400 that
 *   names it; an optional one becomes the empty text. A value for a name the template does not
 *   have is a 400 (a typo would otherwise run the query without it).
 */
import { refusal } from '../common/errors/app-error';

/** At most this many variables per template. */
export const TEMPLATE_MAX_VARIABLES = 64;
/** A variable's name, label and default, preview values: at most this many characters each. */
export const TEMPLATE_MAX_VARIABLE_NAME = 128;
export const TEMPLATE_MAX_VARIABLE_TEXT = 4096;
/** The template's query and the filled query: as long as a query typed by hand may be (SearchString). */
export const TEMPLATE_MAX_QUERY_CHARS = 65536;
/** A variable's name: 1 to 128 characters, none of them whitespace (the product's rule: no spaces). */
export const TEMPLATE_VARIABLE_NAME = /^\S{1,128}$/u;
/** `%%NAME%%` in a query: the product's convention for a variable (what "Save as template" offers). */
export const TEMPLATE_PLACEHOLDER = /%%([A-Za-z0-9_.-]{1,120})%%/g;

/** The product's TemplateVariable (client/types: json names in lower camel case). */
export interface TemplateVariable {
  name: string;
  label: string;
  description: string;
  required: boolean;
  defaultValue: string;
  previewValue: string | null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value each variable takes: the one given, else its default; a required variable left empty is a 400. */
export function templateValues(variables: readonly TemplateVariable[], given: Readonly<Record<string, string>>): Map<string, string> {
  const names = new Set(variables.map((v) => v.name));
  for (const name of Object.keys(given)) if (!names.has(name)) throw refusal('TEMPLATE_VARIABLE_UNKNOWN', name.slice(0, TEMPLATE_MAX_VARIABLE_NAME + 2));
  const values = new Map<string, string>();
  for (const v of variables) {
    const value = Object.prototype.hasOwnProperty.call(given, v.name) ? given[v.name] : v.defaultValue;
    if (v.required && !value.trim()) throw refusal('TEMPLATE_VARIABLE_REQUIRED', v.name, v.label);
    values.set(v.name, value);
  }
  return values;
}

/** The query with every variable replaced by its value (see the file's comment); longer than TEMPLATE_MAX_QUERY_CHARS is a 400. */
export function fillTemplate(query: string, variables: readonly TemplateVariable[], given: Readonly<Record<string, string>>): string {
  const values = templateValues(variables, given);
  if (!values.size) return query;
  const names = [...values.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const parts: string[] = [];
  let length = 0;
  let from = 0;
  const add = (text: string) => {
    length += text.length;
    // Checked as it grows: 16,000 short names each filled with 4,096 characters stop here, not in memory.
    if (length > TEMPLATE_MAX_QUERY_CHARS) throw refusal('TEMPLATE_QUERY_TOO_LONG', TEMPLATE_MAX_QUERY_CHARS);
    parts.push(text);
  };
  for (const m of query.matchAll(new RegExp(names.join('|'), 'g'))) {
    add(query.slice(from, m.index));
    add(values.get(m[0]) ?? m[0]);
    from = m.index + m[0].length;
  }
  add(query.slice(from));
  return parts.join('');
}

/** The `%%NAME%%` variables written in a query, each once, in order of appearance. */
export function placeholdersIn(query: string): string[] {
  return [...new Set([...query.matchAll(TEMPLATE_PLACEHOLDER)].map((m) => m[0]))];
}
