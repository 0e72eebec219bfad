/**
 * `kv [-e EV] [-sep S] [-d chars | -dall S] [-s] [-q] [-noclean] key [op value] [as name] ...`
 * (default: key=value pairs delimited by whitespace), as the product's page defines the flags.
 */
import { ArgReader, ExtractItem, readExtractItems } from '../args';
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

/** 1 for the ASCII characters that match `/\s/` */
const ASCII_SPACE = Uint8Array.from({ length: 0x80 }, (_, c) => (isSpace(c) ? 1 : 0));

/** Parses one text; built once per options (and wanted keys) by {@link compileKV}. */
export type KVParser = (text: string) => Map<string, string>;

const NO_PAIRS: ReadonlyMap<string, string> = new Map();

/**
 * Pairs in one pass, driven by the separator: for each separator, the key is the run of
 * non-delimiters before it, the value runs to the next delimiter, or is `"quoted"` (quotes
 * removed; off when `"` is a delimiter). The first occurrence of a key wins; an empty key is
 * skipped. With `wanted`, only wanted keys are returned (other keys and values are compared in
 * place, never copied), and parsing stops once every wanted key has been seen.
 */
export function compileKV(o: KVOptions, wanted?: ReadonlySet<string>): KVParser {
  const sep = o.sep;
  const sepLen = sep.length;
  const clean = o.clean;
  const all = o.delimAll;
  const allLen = all === undefined ? 0 : all.length;
  // delimiters below 0x80 in a table; above, /\s/ or (-d) a set of each character's first UTF-16 unit
  const delims = o.delims;
  const asciiDelim = delims === undefined ? ASCII_SPACE : new Uint8Array(0x80);
  const otherDelim = delims === undefined ? undefined : new Set<number>();
  if (otherDelim !== undefined) {
    for (const ch of delims ?? '') {
      const c = ch.charCodeAt(0);
      if (c < 0x80) asciiDelim[c] = 1;
      else otherDelim.add(c);
    }
  }
  const quotes = all !== undefined ? !all.includes('"') : asciiDelim[QUOTE] === 0;
  const isDelim = (c: number): boolean => (c < 0x80 ? asciiDelim[c] === 1 : otherDelim === undefined ? isSpace(c) : otherDelim.has(c));
  const keys = wanted === undefined ? undefined : [...wanted];
  const nKeys = keys === undefined ? 0 : keys.length;

  return (text: string): Map<string, string> => {
    const out = new Map<string, string>();
    if (keys !== undefined && nKeys === 0) return out;
    let missing = nKeys;
    const n = text.length;
    let i = 0;
    while (i < n) {
      const at = text.indexOf(sep, i);
      if (at < 0) break;
      let kEnd = at;
      if (clean) while (kEnd > i && isSpace(text.charCodeAt(kEnd - 1))) kEnd--;
      let kStart = kEnd;
      if (all === undefined) {
        while (kStart > i && !isDelim(text.charCodeAt(kStart - 1))) kStart--;
      } else {
        while (kStart > i && !(kStart - allLen >= i && text.startsWith(all, kStart - allLen))) kStart--;
      }
      // blanks after the separator are skipped (-noclean: kept in the value, which still runs to the delimiter after them)
      const v0 = at + sepLen;
      let v = v0;
      while (v < n && isSpace(text.charCodeAt(v)) && !(all !== undefined && text.startsWith(all, v))) v++;
      if (!clean && text.charCodeAt(v) === QUOTE) v = v0;
      let vStart: number;
      let vEnd: number;
      let trim = false;
      if (quotes && text.charCodeAt(v) === QUOTE) {
        let close = text.indexOf('"', v + 1);
        if (close < 0) close = n;
        vStart = v + 1;
        vEnd = close;
        i = close + 1;
      } else {
        let end = v;
        if (all !== undefined) {
          end = text.indexOf(all, v);
          if (end < 0) end = n;
        } else {
          while (end < n && !isDelim(text.charCodeAt(end))) end++;
        }
        vStart = clean ? v : v0;
        vEnd = end;
        trim = clean;
        i = end;
      }
      if (i === at) i = at + 1; // never stand still
      if (kStart === kEnd) continue;
      let key: string;
      if (keys === undefined) {
        key = text.slice(kStart, kEnd);
        if (out.has(key)) continue;
      } else {
        const kLen = kEnd - kStart;
        let j = 0;
        while (j < nKeys && !(keys[j].length === kLen && text.startsWith(keys[j], kStart))) j++;
        if (j === nKeys) continue;
        key = keys[j];
        if (out.has(key)) continue;
      }
      const value = text.slice(vStart, vEnd);
      out.set(key, trim ? value.trimEnd() : value);
      if (--missing === 0) return out;
    }
    return out;
  };
}

/** {@link compileKV} for one text; compile once instead when parsing many. */
export function parseKV(text: string, o: KVOptions, wanted?: ReadonlySet<string>): Map<string, string> {
  return compileKV(o, wanted)(text);
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
    const parse = compileKV(opts, new Set(items.map((it) => it.source)));
    let kv: ReadonlyMap<string, string> = NO_PAIRS;
    const get = (it: ExtractItem): string | undefined => kv.get(it.source);
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        kv = text === undefined ? NO_PAIRS : parse(text);
        return storeExtracted(e, items, get, strict);
      },
    };
  },
};
