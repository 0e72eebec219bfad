/**
 * `kv [-e EV] [-sep S] [-d chars | -dall S] [-s] [-q] [-noclean] key [op value] [as name] ...`
 * (default: key=value pairs delimited by whitespace), as the product's page defines the flags.
 */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { consumedOf, optionalString, readFlags, requireItems, sourceText, storeExtracted } from './extract-common';

export interface KVOptions {
  /** between a key and its value (default "=") */
  sep: string;
  /** between pairs: any of these characters (default: any whitespace) ... */
  delims?: string;
  /** ... or this whole string */
  delimAll?: string;
  /** skip blanks around the separator and trim values (default true; -noclean turns it off) */
  clean: boolean;
}

const QUOTE = 0x22;
const SPACE_RE = /\s/;

/** `/\s/` for one char code, without the regular expression for ASCII. */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return SPACE_RE.test(String.fromCharCode(c));
}

/**
 * Pairs in one pass, driven by the separator: for each separator, the key is the run of
 * non-delimiters before it, the value runs to the next delimiter, or is `"quoted"` (quotes
 * removed; off when `"` is a delimiter). The first occurrence of a key wins; an empty key is
 * skipped. With `wanted`, parsing stops once every wanted key has been seen.
 */
export function parseKV(text: string, o: KVOptions, wanted?: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  let missing = wanted ? wanted.size : -1;
  const n = text.length;
  const all = o.delimAll;
  const chars = o.delims === undefined ? undefined : new Set([...o.delims].map((c) => c.charCodeAt(0)));
  const quotes = all === undefined ? !chars?.has(QUOTE) : !all.includes('"');
  const isDelim = (c: number): boolean => (chars ? chars.has(c) : isSpace(c));
  /** the delimiter ending just before `p` starts at the returned offset, or -1 */
  const delimBefore = (p: number, floor: number): number => {
    if (all === undefined) return p > floor && isDelim(text.charCodeAt(p - 1)) ? p - 1 : -1;
    return p - all.length >= floor && text.startsWith(all, p - all.length) ? p - all.length : -1;
  };
  let i = 0;
  while (i < n) {
    const at = text.indexOf(o.sep, i);
    if (at < 0) break;
    let kEnd = at;
    if (o.clean) while (kEnd > i && isSpace(text.charCodeAt(kEnd - 1))) kEnd--;
    let kStart = kEnd;
    while (kStart > i && delimBefore(kStart, i) < 0) kStart--;
    const key = text.slice(kStart, kEnd);
    // blanks after the separator are skipped (-noclean: kept in the value, which still runs to the delimiter after them)
    const v0 = at + o.sep.length;
    let v = v0;
    while (v < n && isSpace(text.charCodeAt(v)) && !(all !== undefined && text.startsWith(all, v))) v++;
    if (!o.clean && text.charCodeAt(v) === QUOTE) v = v0;
    let value: string;
    if (quotes && text.charCodeAt(v) === QUOTE) {
      let close = text.indexOf('"', v + 1);
      if (close < 0) close = n;
      value = text.slice(v + 1, close);
      i = close + 1;
    } else {
      let end = v;
      if (all !== undefined) {
        end = text.indexOf(all, v);
        if (end < 0) end = n;
      } else {
        while (end < n && !isDelim(text.charCodeAt(end))) end++;
      }
      value = o.clean ? text.slice(v, end).trimEnd() : text.slice(v0, end);
      i = end;
    }
    if (i === at) i = at + 1; // never stand still
    if (key === '' || out.has(key)) continue;
    out.set(key, value);
    if (wanted !== undefined && wanted.has(key) && --missing === 0) return out;
  }
  return out;
}

export const kvModule: ModuleDef = {
  name: 'kv',
  info: 'Extract key/value pairs (default key=value delimited by whitespace; -sep separator, -d delimiter characters, -dall delimiter string, -s strict, -noclean keeps blanks; "quoted" values always) with optional inline filters',
  examples: ['kv user status', 'kv -sep ":" -d "|" host port', 'kv -q devname level=="critical" msg', 'kv -s -sep EQUALS y'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value', sep: 'value', d: 'value', dall: 'value', s: 'bool', q: 'bool', noclean: 'bool' });
    const ev = optionalString(flags.e);
    const sep = optionalString(flags.sep) ?? '=';
    const delims = optionalString(flags.d);
    const delimAll = optionalString(flags.dall);
    if (sep === '' || delims === '' || delimAll === '') throw new ModuleArgError('separator and delimiters must not be empty');
    if (delims !== undefined && delimAll !== undefined) throw new ModuleArgError('-d and -dall cannot be used together');
    const opts: KVOptions = { sep, delims, delimAll, clean: flags.noclean !== true };
    const strict = flags.s === true;
    const items = requireItems(
      readExtractItems(r, (k) => k),
      'key',
    );
    const wanted = new Set(items.map((it) => it.source));
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const kv = text === undefined ? new Map<string, string>() : parseKV(text, opts, wanted);
        return storeExtracted(e, items, (it) => kv.get(it.source), strict);
      },
    };
  },
};
