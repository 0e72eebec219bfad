/** `length [-t target] [source]`: byte length of DATA or of an enumerated value, into "length" (or target). */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { evToString, getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { optionalString, readFlags } from './extract-common';

export const lengthModule: ModuleDef = {
  name: 'length',
  info: 'Write the length in bytes of the entry data, or of an enumerated value, into "length" (-t another name); entries lacking the value get none',
  examples: ['length', 'length -t foo', 'length Payload', 'length -t foo Payload'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { t: 'value' });
    const target = optionalString(flags.t) ?? 'length';
    const source = r.done ? undefined : r.value('source');
    r.end();
    if (target === '') throw new ModuleArgError('target must not be empty');
    return {
      produced: [target],
      consumed: source === undefined ? [] : [source],
      process(e, rt) {
        const v = source === undefined ? e.data : getEV(e, source, rt);
        if (v === undefined) return true;
        e.evs.set(target, Buffer.isBuffer(v) ? v.length : Buffer.byteLength(evToString(v), 'utf8'));
        return true;
      },
    };
  },
};
