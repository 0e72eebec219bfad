import { refusal } from '../common/errors/app-error';
import { TEMPLATE_MAX_QUERY_CHARS, TEMPLATE_MAX_VARIABLE_NAME, TEMPLATE_MAX_VARIABLE_TEXT, TEMPLATE_MAX_VARIABLES, TEMPLATE_VARIABLE_NAME, TemplateVariable } from '../query';

export interface TemplateContents {
  query: string;
  variables: TemplateVariable[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const bad = (problem: string) => refusal('TEMPLATE_CONTENTS_INVALID', problem);

/** A text field of a variable: absent or null is empty; else a string of at most `max` characters. */
function text(v: Record<string, unknown>, key: string, at: string, max = TEMPLATE_MAX_VARIABLE_TEXT): string {
  const value = v[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw bad(`${at}.${key} must be a string`);
  if (value.length > max) throw bad(`${at}.${key} is longer than ${max} characters`);
  // Stored as JSON (jsonb), which holds no NUL character.
  if (value.includes('\u0000')) throw bad(`${at}.${key} contains a NUL character`);
  return value;
}

function variable(raw: unknown, i: number): TemplateVariable {
  const at = `variables[${i}]`;
  if (!isObject(raw)) throw bad(`${at} must be an object`);
  if (typeof raw.name !== 'string') throw bad(`${at}.name must be a string`);
  if (!TEMPLATE_VARIABLE_NAME.test(raw.name) || raw.name.includes('\u0000'))
    throw refusal('TEMPLATE_VARIABLE_NAME_INVALID', raw.name.slice(0, TEMPLATE_MAX_VARIABLE_NAME + 2), TEMPLATE_MAX_VARIABLE_NAME);
  if (raw.required !== undefined && raw.required !== null && typeof raw.required !== 'boolean') throw bad(`${at}.required must be true or false`);
  return {
    name: raw.name,
    label: text(raw, 'label', at),
    description: text(raw, 'description', at),
    required: raw.required === true,
    defaultValue: text(raw, 'defaultValue', at),
    previewValue: raw.previewValue === null || raw.previewValue === undefined ? null : text(raw, 'previewValue', at),
  };
}

/**
 * The product's TemplateContents `{query, variables}` from a request, checked: an object, a query
 * of at most TEMPLATE_MAX_QUERY_CHARS, at most TEMPLATE_MAX_VARIABLES variables with valid,
 * distinct names. The product's older one-variable form (`variable`, `variableLabel`,
 * `variableDescription`, `required`, `testValue`, as old kits hold it) is read as one variable,
 * as the product's client does. Anything else is a 400 naming the field.
 */
export function readContents(raw: unknown): TemplateContents {
  if (!isObject(raw)) throw bad('must be an object with query and variables');
  if (raw.query !== undefined && raw.query !== null && typeof raw.query !== 'string') throw bad('query must be a string');
  const query = (raw.query as string | null | undefined) ?? '';
  if (query.length > TEMPLATE_MAX_QUERY_CHARS) throw bad(`query is longer than ${TEMPLATE_MAX_QUERY_CHARS} characters`);
  let list = raw.variables;
  if ((list === undefined || list === null) && typeof raw.variable === 'string' && raw.variable !== '') {
    list = [{ name: raw.variable, label: raw.variableLabel, description: raw.variableDescription, required: raw.required, defaultValue: raw.testValue }];
  }
  if (list === undefined || list === null) list = [];
  if (!Array.isArray(list)) throw bad('variables must be an array');
  if (list.length > TEMPLATE_MAX_VARIABLES) throw refusal('TEMPLATE_TOO_MANY_VARIABLES', TEMPLATE_MAX_VARIABLES);
  const variables = list.map(variable);
  const seen = new Set<string>();
  for (const v of variables) {
    if (seen.has(v.name)) throw refusal('TEMPLATE_VARIABLE_DUPLICATE', v.name);
    seen.add(v.name);
  }
  return { query, variables };
}

/** The values of a run: an object of variable name to string (absent or null: none). */
export function readValues(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) throw refusal('TEMPLATE_VALUES_INVALID', 'must be an object of variable name to text');
  const entries = Object.entries(raw);
  if (entries.length > TEMPLATE_MAX_VARIABLES) throw refusal('TEMPLATE_TOO_MANY_VARIABLES', TEMPLATE_MAX_VARIABLES);
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of entries) {
    if (typeof value !== 'string') throw refusal('TEMPLATE_VALUES_INVALID', `the value of ${name.slice(0, TEMPLATE_MAX_VARIABLE_NAME + 2)} must be a string`);
    if (value.length > TEMPLATE_MAX_QUERY_CHARS) throw refusal('TEMPLATE_QUERY_TOO_LONG', TEMPLATE_MAX_QUERY_CHARS);
    values[name] = value;
  }
  return values;
}
