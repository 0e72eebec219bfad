/** HEC bodies: one or more concatenated (or newline separated) JSON objects. */
import { SerializedEV } from '../query';

export class HecError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly invalidEvent?: number,
  ) {
    super(message);
  }
}

/** Splits `{...}{...}\n{...}` into the JSON texts of its top-level values. */
export function splitConcatenatedJson(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (depth === 0 && /\s/.test(ch)) continue;
    if (depth === 0) start = i;
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
    else if (depth === 0) throw new HecError(400, 6, 'Invalid data format', out.length);
    if (depth < 0) throw new HecError(400, 6, 'Invalid data format', out.length);
    if (depth === 0) out.push(text.slice(start, i + 1));
  }
  if (depth !== 0 || inString) throw new HecError(400, 6, 'Invalid data format', out.length);
  return out;
}

/** HEC `fields` -> EVs (strings, numbers, booleans kept; anything else as JSON text). */
export function hecFields(fields: unknown, index: number): Array<[string, SerializedEV]> | null {
  if (fields === undefined || fields === null) return null;
  if (typeof fields !== 'object' || Array.isArray(fields)) throw new HecError(400, 6, 'Invalid data format: fields must be an object', index);
  const out: Array<[string, SerializedEV]> = [];
  for (const [k, v] of Object.entries(fields as Record<string, unknown>)) {
    if (!k.length || k.length > 128) throw new HecError(400, 6, 'Invalid data format: field names must be 1 to 128 characters', index);
    out.push([k, typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? v : JSON.stringify(v)]);
  }
  if (out.length > 64) throw new HecError(400, 6, 'Invalid data format: more than 64 fields', index);
  return out.length ? out : null;
}
