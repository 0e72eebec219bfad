/** `hexlify [-d] [EV [as name] ...]`: ASCII hex of the entry data or of enumerated values (-d: back to bytes). */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { EVValue } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { MAX_BUILT_VALUE, readRenames, readValue, valueBytes, writeValue } from './transform-common';
import { addWarning } from '../warnings';

/** Hex of a value: an integer as its hex digits (as the page's "an int as ASCII hex"), anything else byte by byte. */
export function hexlify(v: EVValue): string {
  if (typeof v === 'number' && Number.isInteger(v)) return (v < 0 ? '-' : '') + BigInt(Math.abs(v)).toString(16);
  return valueBytes(v).toString('hex');
}

/** The bytes of hex text (an optional 0x prefix, surrounding spaces ignored); undefined when it is not hex. */
export function unhexlify(v: EVValue): Buffer | undefined {
  const s = (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)).trim().replace(/^0[xX]/, '');
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return undefined;
  return Buffer.from(s, 'hex');
}

export const hexlifyModule: ModuleDef = {
  name: 'hexlify',
  info:
    'Encode the entry data (no arguments) or enumerated values as ASCII hex, in place or into the name given with "as"; an integer is written as its hex digits. ' +
    '-d decodes hex text (an optional 0x prefix) into bytes; a value that is not hex is left without output. One entry gets at most 16 MiB of new values (a warning names the cut)',
  examples: ['hexlify', 'hexlify Data', 'hexlify DATA as hexdata', 'hexlify ID as hexid Data as hexdata', 'hexlify -d val as decodedval'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { d: 'bool' });
    const items = readRenames(r);
    if (items.length === 0) items.push({ source: 'DATA', target: 'DATA' });
    const decode = f.d === true;
    return {
      produced: items.map((i) => i.target).filter((n) => n !== 'DATA'),
      consumed: items.map((i) => i.source).filter((n) => n !== 'DATA'),
      process(e, rt) {
        const values = items.map((i) => readValue(e, i.source, rt));
        let built = 0;
        for (let k = 0; k < items.length; k++) {
          const v = values[k];
          if (v === undefined) continue;
          const out = decode ? unhexlify(v) : hexlify(v);
          if (out === undefined) continue;
          built += out.length;
          if (built > MAX_BUILT_VALUE && k > 0) {
            addWarning(rt, `hexlify: the values for an entry would pass ${MAX_BUILT_VALUE / 1024 / 1024} MiB; the later ones were left out`);
            break;
          }
          writeValue(e, items[k].target, out);
        }
        return true;
      },
    };
  },
};
