/** `kv [-e EV] [-d delim] [-s sep] key [op value] [as name] ...` (default: key=value, whitespace separated) */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, requireItems, sourceText, storeExtracted } from './extract-common';

/**
 * Splits text into pairs on separators outside double quotes (default: any whitespace); values may
 * be double-quoted (quotes removed). The first occurrence of a key wins. With `wanted`, parsing
 * stops as soon as every wanted key has been seen (later pairs could not change the answer).
 * One pass over char codes with slices: this runs once per scanned entry.
 */
export function parseKV(text: string, delim: string, sep: string | undefined, wanted?: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  let missing = wanted ? wanted.size : -1;
  const take = (pair: string): boolean => {
    const at = pair.indexOf(delim);
    if (at <= 0) return false;
    const key = pair.slice(0, at).trim();
    if (out.has(key)) return false;
    let value = pair.slice(at + delim.length).trim();
    if (value.length >= 2 && value.charCodeAt(0) === QUOTE && value.charCodeAt(value.length - 1) === QUOTE) value = value.slice(1, -1);
    out.set(key, value);
    return wanted !== undefined && wanted.has(key) && --missing === 0;
  };
  const sepLen = sep === undefined ? 1 : sep.length;
  let start = 0;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) inQuote = !inQuote;
    if (inQuote || !(sep === undefined ? isSpace(c) : text.startsWith(sep, i))) continue;
    if (i > start && take(text.slice(start, i))) return out;
    i += sepLen - 1;
    start = i + 1;
  }
  if (text.length > start) take(text.slice(start));
  return out;
}

const QUOTE = 0x22;
const SPACE_RE = /\s/;

/** `/\s/` for one char code, without the regular expression for ASCII. */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return SPACE_RE.test(String.fromCharCode(c));
}

export const kvModule: ModuleDef = {
  name: 'kv',
  info: 'Extract key/value pairs (default key=value separated by whitespace) with optional inline filters',
  examples: ['kv user status', 'kv -d ":" -s "," host port', 'kv level=="critical"'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = r.flags({ e: 'value', d: 'value', s: 'value' });
    const ev = optionalString(flags.e);
    const delim = optionalString(flags.d) ?? '=';
    const sep = optionalString(flags.s);
    if (delim === '' || sep === '') throw new ModuleArgError('delimiter and separator must not be empty');
    const items = requireItems(readExtractItems(r, (k) => k), 'key');
    const wanted = new Set(items.map((it) => it.source));
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const kv = text === undefined ? new Map<string, string>() : parseKV(text, delim, sep, wanted);
        return storeExtracted(e, items, (it) => kv.get(it.source));
      },
    };
  },
};
