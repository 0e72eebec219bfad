/** `abs EV [as name] ...`: the absolute value of numeric enumerated values, in place or under a new name. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { evToNumber, getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { readRenames } from './transform-common';

export const absModule: ModuleDef = {
  name: 'abs',
  info: 'Replace a numeric enumerated value with its absolute value, or write it under the name after "as" and leave the original; numeric text counts, other values get no output',
  examples: ['abs offset', 'abs offset as offsetAbsolute', 'abs a as absA b as absB'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    readFlags(r, {});
    const items = readRenames(r);
    if (items.length === 0) throw new ModuleArgError('missing enumerated value name, e.g. abs offset');
    return {
      produced: items.map((i) => i.target),
      consumed: items.map((i) => i.source),
      process(e, rt) {
        const values = items.map((i) => evToNumber(getEV(e, i.source, rt)));
        items.forEach((it, k) => {
          const x = values[k];
          if (x !== null) e.evs.set(it.target, Math.abs(x));
        });
        return true;
      },
    };
  },
};
