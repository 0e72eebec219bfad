/** `base64 [-d] [-raw] [-s] [-u] [-t target] [EV]`: encode (or decode) DATA or an enumerated value. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';
import { checkName, readValue, valueBytes, writeValue } from './transform-common';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function table(alphabet: string): Int8Array {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}
const STD_T = table(STD);
const URL_T = table(URL);

export interface Decoded {
  bytes: Buffer;
  /** the whole text decoded cleanly */
  complete: boolean;
}

/**
 * Decodes as Go's encoding/base64 does (line breaks ignored; padding required unless raw), but
 * keeps what precedes the first error: the bytes of every complete group of four characters.
 */
export function decodeBase64(text: Buffer, url: boolean, raw: boolean): Decoded {
  const t = url ? URL_T : STD_T;
  const out = Buffer.allocUnsafe(Math.floor((text.length * 3) / 4) + 3);
  let n = 0;
  const quad = [0, 0, 0, 0];
  let q = 0;
  const flush = (count: number) => {
    const v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6) | quad[3];
    out[n++] = v >> 16;
    if (count > 1) out[n++] = (v >> 8) & 0xff;
    if (count > 2) out[n++] = v & 0xff;
  };
  const done = (complete: boolean) => ({ bytes: Buffer.from(out.subarray(0, n)), complete });
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === 0x0a || c === 0x0d) continue;
    if (c === 0x3d && !raw) {
      // padding: "xx==" or "xxx=", then nothing but line breaks
      if (q < 2) return done(false);
      let pads = 1;
      let j = i + 1;
      for (; j < text.length; j++) {
        const d = text[j];
        if (d === 0x0a || d === 0x0d) continue;
        if (d === 0x3d && pads < 4 - q) pads++;
        else return done(false);
      }
      if (pads !== 4 - q) return done(false);
      quad.fill(0, q);
      flush(q - 1);
      return done(true);
    }
    const v = c < 128 ? t[c] : -1;
    if (v < 0) return done(false);
    quad[q++] = v;
    if (q === 4) {
      flush(3);
      q = 0;
    }
  }
  if (q === 0) return done(true);
  if (!raw || q === 1) return done(false);
  quad.fill(0, q);
  flush(q - 1);
  return done(true);
}

export function encodeBase64(b: Buffer, url: boolean, raw: boolean): string {
  let s = b.toString(url ? 'base64url' : 'base64');
  if (url && !raw) s += '='.repeat((4 - (s.length % 4)) % 4);
  if (!url && raw) s = s.replace(/=+$/, '');
  return s;
}

export const base64Module: ModuleDef = {
  name: 'base64',
  info:
    'Encode the entry data or an enumerated value as base64 (-d: decode it) and write it back, or into -t target. -raw: no "=" padding, -u: the URL-safe alphabet, ' +
    '-s: drop entries whose value does not decode entirely (without -s what precedes the first error is kept). Decoded values are bytes, encoded ones text',
  examples: ['base64 -d id', 'base64 -t decodedid -d id', 'base64 -u -raw -t token user', 'base64 -d -s Payload'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { d: 'bool', raw: 'bool', s: 'bool', t: 'value', u: 'bool' });
    const source = r.done ? 'DATA' : checkName(r.value('enumerated value name'), 'enumerated value name');
    r.end();
    const target = f.t === undefined ? source : checkName(optionalString(f.t) ?? '', 'target');
    const [decode, url, raw, strict] = [f.d === true, f.u === true, f.raw === true, f.s === true];
    if (strict && !decode) throw new ModuleArgError('-s (strict decoding) needs -d');
    return {
      produced: target === 'DATA' ? [] : [target],
      consumed: source === 'DATA' ? [] : [source],
      process(e, rt) {
        const v = readValue(e, source, rt);
        if (v === undefined) return true;
        if (!decode) {
          writeValue(e, target, encodeBase64(valueBytes(v), url, raw));
          return true;
        }
        const d = decodeBase64(valueBytes(v), url, raw);
        if (strict && !d.complete) return false;
        writeValue(e, target, d.bytes);
        return true;
      },
    };
  },
};
