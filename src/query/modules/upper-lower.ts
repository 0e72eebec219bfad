/** `upper [EV ...]` / `lower [EV ...]`: changes the case of the entry data (no arguments) or of the enumerated values named. */
import { isUtf8 } from 'node:buffer';
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { EVValue } from '../types';
import { getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';

type Case = 'upper' | 'lower';

/** UTF-8 text changes case as text; other bytes change only their ASCII letters. */
function caseBytes(b: Buffer, to: Case): Buffer {
  if (isUtf8(b)) return Buffer.from(to === 'upper' ? b.toString('utf8').toUpperCase() : b.toString('utf8').toLowerCase(), 'utf8');
  const out = Buffer.from(b);
  const [lo, hi, delta] = to === 'upper' ? [0x61, 0x7a, -32] : [0x41, 0x5a, 32];
  for (let i = 0; i < out.length; i++) if (out[i] >= lo && out[i] <= hi) out[i] += delta;
  return out;
}

function caseValue(v: EVValue, to: Case): EVValue {
  if (typeof v === 'string') return to === 'upper' ? v.toUpperCase() : v.toLowerCase();
  if (Buffer.isBuffer(v)) return caseBytes(v, to);
  return v;
}

function caseModule(to: Case): ModuleDef {
  return {
    name: to,
    info: `Convert the entry data (no arguments) or the named enumerated values to ${to} case`,
    examples: [to, `json location.region_code | ${to} region_code`],
    condensing: false,
    build(args: Token[]): ModuleInstance {
      const r = new ArgReader(args);
      readFlags(r, {});
      const names: string[] = [];
      while (!r.done) names.push(r.value('enumerated value name'));
      const data = names.length === 0 || names.includes('DATA');
      const evs = names.filter((n) => n !== 'DATA');
      return {
        produced: evs,
        consumed: evs,
        process(e, rt) {
          if (data) e.data = caseBytes(e.data, to);
          for (const n of evs) {
            const v = getEV(e, n, rt);
            if (v !== undefined) e.evs.set(n, caseValue(v, to));
          }
          return true;
        },
      };
    },
  };
}

export const upperModule = caseModule('upper');
export const lowerModule = caseModule('lower');
