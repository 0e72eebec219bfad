/** `cef [-e EV] [-s] Key [op value] [as name] ...`: CEF header fields and extension keys. */
import { ArgReader, readExtractItems } from '../args';
import { Token } from '../lexer';
import { ModuleDef, ModuleInstance } from './module';
import { checkOps, consumedOf, EQUALITY_OPS, optionalString, readFlags, requireItems, sourceText, storeExtracted } from './extract-common';

/** Header fields in order after `CEF:` (the page lists all but DeviceVersion; it is here too). */
export const CEF_HEADERS = ['Version', 'DeviceVendor', 'DeviceProduct', 'DeviceVersion', 'Signature', 'Name', 'Severity'] as const;

export interface CefRecord {
  header: Map<string, string>;
  ext: Map<string, string>;
}

const KEY = /^[A-Za-z0-9_.-]+$/;

/** Header fields: `|` separated, `\|` and `\\` escaped. Returns the offset of the extension. */
function readHeader(s: string, at: number, header: Map<string, string>): number {
  let cur = '';
  let field = 0;
  for (let i = at; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && (s[i + 1] === '|' || s[i + 1] === '\\')) {
      cur += s[++i];
    } else if (c === '|') {
      header.set(CEF_HEADERS[field++], cur);
      cur = '';
      if (field === CEF_HEADERS.length) return i + 1;
    } else {
      cur += c;
    }
  }
  if (field < CEF_HEADERS.length && cur !== '') header.set(CEF_HEADERS[field], cur);
  return s.length;
}

function unescapeValue(v: string): string {
  if (!v.includes('\\')) return v;
  return v.replace(/\\([\\=nr|])/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c));
}

/**
 * Extension `k1=v1 k2=some value k3=v3`: a value runs to the space before the next key. A key is
 * the word (letters, digits, `_ . -`) between a space and an unescaped `=`; an `=` after anything
 * else (a URL's query string) belongs to the value. The first occurrence of a key wins.
 */
function readExtension(s: string, at: number, ext: Map<string, string>): void {
  let key: string | undefined;
  let valueStart = 0;
  let wordStart = at;
  for (let i = at; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
    } else if (c === ' ') {
      wordStart = i + 1;
    } else if (c === '=') {
      const k = s.slice(wordStart, i);
      if (!KEY.test(k)) continue;
      if (key !== undefined && !ext.has(key)) ext.set(key, unescapeValue(s.slice(valueStart, Math.max(valueStart, wordStart - 1)).trim()));
      key = k;
      valueStart = i + 1;
      wordStart = s.length; // a key needs a space before it
    }
  }
  if (key !== undefined && !ext.has(key)) ext.set(key, unescapeValue(s.slice(valueStart).trim()));
}

/** Parses a CEF record anywhere in the text (after a syslog header, say); undefined if there is no `CEF:`. */
export function parseCef(text: string): CefRecord | undefined {
  const start = text.indexOf('CEF:');
  if (start < 0) return undefined;
  const rec: CefRecord = { header: new Map(), ext: new Map() };
  readExtension(text, readHeader(text, start + 4, rec.header), rec.ext);
  return rec;
}

type Where = { ext: boolean; key: string };

function where(src: string): Where {
  const m = /^ext\.(.+)$/i.exec(src);
  if (m) return { ext: true, key: m[1] };
  return { ext: !(CEF_HEADERS as readonly string[]).includes(src), key: src };
}

export const cefModule: ModuleDef = {
  name: 'cef',
  info: 'Extract CEF header fields (Version DeviceVendor DeviceProduct DeviceVersion Signature Name Severity) and extension keys (Ext.key for a key named like a header); filters == != ~ !~; -s drops entries missing a field',
  examples: ['cef DeviceVendor DeviceProduct Severity==7 msg', 'cef DeviceVendor=="Citrix" Ext.Version msg~Banned', 'cef Version as hdrversion Ext.Version'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { e: 'value', s: 'bool' });
    const ev = optionalString(flags.e);
    const items = requireItems(
      readExtractItems(r, (s) => where(s).key),
      'key',
    );
    checkOps(items, () => EQUALITY_OPS);
    const at = new Map(items.map((it) => [it, where(it.source)]));
    const strict = flags.s === true;
    return {
      produced: items.map((it) => it.name),
      consumed: consumedOf(ev),
      process(e, rt) {
        const text = sourceText(e, ev, rt);
        const rec = text === undefined ? undefined : parseCef(text);
        return storeExtracted(
          e,
          items,
          (it) => {
            const w = at.get(it)!;
            return rec && (w.ext ? rec.ext : rec.header).get(w.key);
          },
          strict,
        );
      },
    };
  },
};
