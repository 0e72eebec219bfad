/** `require [-s] [-v] EV ...`: keep entries holding any (-s: all) of the enumerated values; -v keeps those holding none. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';

export const requireModule: ModuleDef = {
  name: 'require',
  info: 'Keep entries that have at least one of the enumerated values (-s: all of them); -v drops entries that have any of them',
  examples: ['require SrcPort', 'require -s SrcPort SrcIP', 'require -v A'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const flags = readFlags(r, { s: 'bool', v: 'bool' });
    const names: string[] = [];
    while (!r.done) names.push(r.value('enumerated value name'));
    if (names.length === 0) throw new ModuleArgError('missing enumerated value name');
    const strict = flags.s === true;
    const invert = flags.v === true;
    return {
      produced: [],
      consumed: names,
      process(e, rt) {
        const has = (n: string) => getEV(e, n, rt) !== undefined;
        if (invert) return !names.some(has);
        return strict ? names.every(has) : names.some(has);
      },
    };
  },
};
