/** `truncate [-ellipsis] [-binary] EV ... N`: keep the first N characters (-binary: bytes) of text and byte values. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { EVValue, ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { checkName, intArg, readValue, writeValue } from './transform-common';

/** Byte length of the first n characters of UTF-8 bytes (an invalid byte counts as one character). */
function utf8Prefix(b: Buffer, n: number): number {
  let i = 0;
  for (let c = 0; c < n && i < b.length; c++) {
    const x = b[i];
    const len = x < 0x80 ? 1 : x >= 0xf0 && x < 0xf8 ? 4 : x >= 0xe0 ? 3 : x >= 0xc0 ? 2 : 1;
    let ok = i + len <= b.length;
    for (let k = 1; ok && k < len; k++) ok = (b[i + k] & 0xc0) === 0x80;
    i += ok ? len : 1;
  }
  return i;
}

const ELLIPSIS = '...';

/** The value cut to n characters (or bytes), undefined when it is short enough or not text/bytes. */
export function truncateValue(v: EVValue, n: number, binary: boolean, ellipsis: boolean): EVValue | undefined {
  if (typeof v === 'string') {
    if (binary) {
      const b = Buffer.from(v, 'utf8');
      return b.length <= n ? undefined : ellipsis ? Buffer.concat([b.subarray(0, n), Buffer.from(ELLIPSIS)]) : b.subarray(0, n);
    }
    let i = 0;
    let c = 0;
    for (; c < n && i < v.length; c++) i += v.codePointAt(i)! > 0xffff ? 2 : 1;
    if (i >= v.length) return undefined;
    return v.slice(0, i) + (ellipsis ? ELLIPSIS : '');
  }
  if (!Buffer.isBuffer(v)) return undefined;
  const end = binary ? n : utf8Prefix(v, n);
  if (end >= v.length) return undefined;
  return ellipsis ? Buffer.concat([v.subarray(0, end), Buffer.from(ELLIPSIS)]) : Buffer.from(v.subarray(0, end));
}

export const truncateModule: ModuleDef = {
  name: 'truncate',
  info:
    'Keep only the first N characters (UTF-8; -binary: bytes) of text and byte enumerated values (DATA: the entry data); other values are left as they are. ' +
    '-ellipsis appends "..." to the values it cut. Several values may be named before N. -binary on text gives bytes',
  examples: ['truncate Message 20', 'truncate -ellipsis Name 10', 'truncate -binary Payload 16', 'truncate a b 5'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { ellipsis: 'bool', binary: 'bool' });
    const words: string[] = [];
    while (!r.done) words.push(r.value('argument'));
    if (words.length < 2) throw new ModuleArgError('needs enumerated value names and a length, e.g. truncate Message 20');
    const n = intArg(words.pop()!, 'the length', 0, 1_000_000_000);
    const names = words.map((w) => checkName(w, 'enumerated value name'));
    const [binary, ellipsis] = [f.binary === true, f.ellipsis === true];
    return {
      produced: names.filter((x) => x !== 'DATA'),
      consumed: names.filter((x) => x !== 'DATA'),
      process(e, rt) {
        for (const name of names) {
          const v = readValue(e, name, rt);
          const out = v === undefined ? undefined : truncateValue(v, n, binary, ellipsis);
          if (out !== undefined) writeValue(e, name, out);
        }
        return true;
      },
    };
  },
};
