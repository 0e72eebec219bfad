/**
 * The product's autoextractor file (configuration/autoextractors.md): TOML with one
 * `[[extraction]]` table per definition and the keys tag, tags, name, desc, module, params, args.
 * TOML itself is read and written by smol-toml; this file holds only the product's layout on top
 * of it: which tables and keys exist, and that every value is a string (tags an array of them).
 */
import { parse, stringify, TomlError } from 'smol-toml';

export interface AxFileEntry {
  tags: string[];
  name: string;
  desc: string;
  module: string;
  params: string;
  args: string;
}

export class AxFileError extends Error {}

const KEYS = ['tag', 'tags', 'name', 'desc', 'module', 'params', 'args'] as const;
const STRING_KEYS = ['tag', 'name', 'desc', 'module', 'params', 'args'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** One `[[extraction]]` table as a definition; AxFileError names the table (1-based) and the key. */
function entryOf(table: unknown, n: number, maxEntries: number): AxFileEntry {
  const where = `[[extraction]] ${n}`;
  if (n > maxEntries) throw new AxFileError(`more than ${maxEntries} definitions in one file`);
  if (!isRecord(table)) throw new AxFileError(`${where} is not a table`);
  for (const key of Object.keys(table)) if (!(KEYS as readonly string[]).includes(key)) throw new AxFileError(`${where}: unknown key "${key}" (keys: ${KEYS.join(', ')})`);
  const text: Record<string, string> = {};
  for (const key of STRING_KEYS) {
    const v = table[key];
    if (v !== undefined && typeof v !== 'string') throw new AxFileError(`${where}: ${key} must be a string`);
    text[key] = v ?? '';
  }
  const list = table.tags;
  if (list !== undefined && (!Array.isArray(list) || !list.every((t) => typeof t === 'string'))) throw new AxFileError(`${where}: tags is an array of strings: tags = ["a", "b"]`);
  const tags = [...(text.tag ? [text.tag] : []), ...((list as string[] | undefined) ?? [])];
  return { tags, name: text.name, desc: text.desc, module: text.module, params: text.params, args: text.args };
}

/** The definitions of a file, in order; AxFileError says what is wrong (TOML's own errors name the line). */
export function parseAxFile(text: string, maxEntries: number): AxFileEntry[] {
  let doc: Record<string, unknown>;
  try {
    doc = parse(text.replace(/^\ufeff/, ''));
  } catch (err) {
    if (err instanceof TomlError) throw new AxFileError(`line ${err.line}, column ${err.column}: ${err.message.split('\n')[0].replace(/^Invalid TOML document: /, '')}`);
    throw err;
  }
  for (const key of Object.keys(doc))
    if (key !== 'extraction')
      throw new AxFileError(Array.isArray(doc[key]) ? `unknown table [[${key}]]: definitions are [[extraction]] tables` : `"${key}" is outside every [[extraction]] table`);
  const tables = doc.extraction;
  if (tables === undefined) return [];
  if (!Array.isArray(tables)) throw new AxFileError('definitions are [[extraction]] tables (an array of tables), not [extraction]');
  return tables.map((t, i) => entryOf(t, i + 1, maxEntries));
}

/** The file of `entries`, readable by parseAxFile and by the product (one tag, then `tags` for more). */
export function encodeAxFile(entries: AxFileEntry[]): string {
  const extraction = entries.map((e) => ({
    tag: e.tags[0] ?? '',
    ...(e.tags.length > 1 ? { tags: e.tags.slice(1) } : {}),
    module: e.module,
    params: e.params,
    ...(e.args ? { args: e.args } : {}),
    ...(e.name ? { name: e.name } : {}),
    ...(e.desc ? { desc: e.desc } : {}),
  }));
  return extraction.length ? stringify({ extraction }) + '\n' : '';
}
