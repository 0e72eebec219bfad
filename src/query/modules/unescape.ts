/** `unescape [-url] [EV ...]`: turns backslash escapes (or -url %XX escapes) of the entry data or enumerated values into what they stand for. */
import { isUtf8 } from 'node:buffer';
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { EVValue } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { checkName, readValue, valueBytes, writeValue } from './transform-common';

const SIMPLE: Record<number, number> = { 0x61: 7, 0x62: 8, 0x66: 12, 0x6e: 10, 0x72: 13, 0x74: 9, 0x76: 11, 0x5c: 0x5c, 0x27: 0x27, 0x22: 0x22 };

function hexAt(b: Buffer, i: number, n: number): number | undefined {
  if (i + n > b.length) return undefined;
  const s = b.toString('latin1', i, i + n);
  return /^[0-9a-fA-F]+$/.test(s) ? parseInt(s, 16) : undefined;
}

/** Go's escapes (strconv.UnquoteChar): \a \b \f \n \r \t \v \\ \' \" \xHH \ooo \uHHHH \UHHHHHHHH; anything else stays as written. */
export function unescapeBackslash(b: Buffer): Buffer {
  if (!b.includes(0x5c)) return b;
  const out: number[] = [];
  const parts: Buffer[] = [];
  const flush = () => {
    if (out.length) parts.push(Buffer.from(out));
    out.length = 0;
  };
  let i = 0;
  while (i < b.length) {
    if (out.length > 65536) flush();
    const c = b[i];
    if (c !== 0x5c || i + 1 >= b.length) {
      out.push(c);
      i++;
      continue;
    }
    const n = b[i + 1];
    if (SIMPLE[n] !== undefined) {
      out.push(SIMPLE[n]);
      i += 2;
    } else if (n === 0x78 && hexAt(b, i + 2, 2) !== undefined) {
      out.push(hexAt(b, i + 2, 2)!);
      i += 4;
    } else if (n >= 0x30 && n <= 0x37 && /^[0-7]{3}$/.test(b.toString('latin1', i + 1, i + 4)) && parseInt(b.toString('latin1', i + 1, i + 4), 8) < 256) {
      out.push(parseInt(b.toString('latin1', i + 1, i + 4), 8));
      i += 4;
    } else if ((n === 0x75 || n === 0x55) && hexAt(b, i + 2, n === 0x75 ? 4 : 8) !== undefined) {
      const len = n === 0x75 ? 4 : 8;
      const cp = hexAt(b, i + 2, len)!;
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        out.push(c);
        i++;
      } else {
        out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
        i += 2 + len;
      }
    } else {
      out.push(c);
      i++;
    }
  }
  flush();
  return Buffer.concat(parts);
}

/** URL query unescaping: %XX is the byte, + a space; a % not followed by two hex digits stays as written. */
export function unescapeUrl(b: Buffer): Buffer {
  const out = Buffer.allocUnsafe(b.length);
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    const h = c === 0x25 ? hexAt(b, i + 1, 2) : undefined;
    if (h !== undefined) {
      out[n++] = h;
      i += 2;
    } else out[n++] = c === 0x2b ? 0x20 : c;
  }
  return Buffer.from(out.subarray(0, n));
}

/** Text stays text when the result is UTF-8; bytes stay bytes. */
function asValue(orig: EVValue, b: Buffer): EVValue {
  return Buffer.isBuffer(orig) || !isUtf8(b) ? b : b.toString('utf8');
}

export const unescapeModule: ModuleDef = {
  name: 'unescape',
  info:
    'Turn escape sequences into what they stand for (\\n \\t \\" \\\\ \\xHH \\ooo \\uHHHH \\UHHHHHHHH, as Go writes them) in the entry data (no arguments) or the named enumerated values; ' +
    '-url decodes URL escapes (%XX, + as a space) instead. A sequence that is not a valid escape stays as written; a result that is not UTF-8 becomes bytes',
  examples: ['unescape', 'alias DATA foo | unescape foo', 'unescape -url query'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { url: 'bool' });
    const names: string[] = [];
    while (!r.done) names.push(checkName(r.value('enumerated value name'), 'enumerated value name'));
    if (names.length === 0) names.push('DATA');
    const decode = f.url === true ? unescapeUrl : unescapeBackslash;
    return {
      produced: names.filter((n) => n !== 'DATA'),
      consumed: names.filter((n) => n !== 'DATA'),
      process(e, rt) {
        for (const n of names) {
          const v = readValue(e, n, rt);
          if (v !== undefined && typeof v !== 'number' && typeof v !== 'boolean') writeValue(e, n, asValue(v, decode(valueBytes(v))));
        }
        return true;
      },
    };
  },
};
