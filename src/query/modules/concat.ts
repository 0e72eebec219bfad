/** `concat [-s sep] EV EV ... [as out]`: joins enumerated values into one (the first one, or out). */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { EVValue, ModuleArgError } from '../types';
import { evToString } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';
import { checkName, MAX_BUILT_VALUE, readValue, writeValue } from './transform-common';
import { addWarning } from '../warnings';

/** Bytes joined to bytes stay bytes (no separator, as the page says); anything else joins as text. */
export function concatValues(values: EVValue[], sep: string): EVValue {
  if (values.every((v) => Buffer.isBuffer(v))) return Buffer.concat(values as Buffer[]);
  return values.map(evToString).join(sep);
}

export const concatModule: ModuleDef = {
  name: 'concat',
  info:
    'Concatenate two or more enumerated values as text (-s puts a separator between them) into the first one, or into the name after "as". ' +
    'Values that are all bytes stay bytes and take no separator; an entry lacking one of the values gets no output, and so does one whose result would pass 16 MiB (with a warning)',
  examples: ['concat -s : Dst DstPort as dialstring', 'concat -s ":" ip port as dialstring', 'concat foo bar'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const f = readFlags(r, { s: 'value' });
    const sep = optionalString(f.s) ?? '';
    const names: string[] = [];
    let target: string | undefined;
    while (!r.done) {
      if (r.accept('as')) {
        target = checkName(r.value('name after "as"'), 'name after "as"');
        r.end();
      } else names.push(checkName(r.value('enumerated value name'), 'enumerated value name'));
    }
    if (names.length < 2) throw new ModuleArgError('needs two or more enumerated values, e.g. concat -s : Dst DstPort as dialstring');
    const out = target ?? names[0];
    return {
      produced: out === 'DATA' ? [] : [out],
      consumed: names.filter((x) => x !== 'DATA'),
      process(e, rt) {
        const values: EVValue[] = [];
        let size = 0;
        for (const n of names) {
          const v = readValue(e, n, rt);
          if (v === undefined) return true;
          size += (Buffer.isBuffer(v) ? v.length : typeof v === 'string' ? v.length : 24) + sep.length;
          values.push(v);
        }
        if (size > MAX_BUILT_VALUE) {
          addWarning(rt, `concat: the value for an entry would pass ${MAX_BUILT_VALUE / 1024 / 1024} MiB; such entries get no output`);
          return true;
        }
        writeValue(e, out, concatValues(values, sep));
        return true;
      },
    };
  },
};
