/** `kv [-e EV] [-d delim] [-s sep] key [op value] [as name] ...` (default: key=value, whitespace separated) */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, requireItems, sourceText, storeExtracted } from './extract-common';

/** Splits text into pairs; values may be double-quoted (quotes removed). First occurrence of a key wins. */
export function parseKV(text: string, delim: string, sep: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of splitPairs(text, sep)) {
    const at = pair.indexOf(delim);
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value = pair.slice(at + delim.length).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!out.has(key)) out.set(key, value);
  }
  return out;
}

function splitPairs(text: string, sep: string | undefined): string[] {
  const parts: string[] = [];
  let cur = '';
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') inQuote = !inQuote;
    const isSep = !inQuote && (sep === undefined ? /\s/.test(c) : text.startsWith(sep, i));
    if (isSep) {
      if (cur) parts.push(cur);
      cur = '';
      if (sep !== undefined) i += sep.length - 1;
    } else {
      cur += c;
    }
  }
  if (cur) parts.push(cur);
  return parts;
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
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const kv = text === undefined ? new Map<string, string>() : parseKV(text, delim, sep);
        return storeExtracted(e, items, (it) => kv.get(it.source));
      },
    };
  },
};
