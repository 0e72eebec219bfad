/** `alias src dst [src2 dst2 ...]`: copies enumerated values under new names. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { getEV } from '../values';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';

export const aliasModule: ModuleDef = {
  name: 'alias',
  info: 'Copy enumerated values under new names, in pairs "source destination"; changing the copy later leaves the original alone',
  examples: ['alias SrcIP src_host', 'alias foo bar X Y'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    readFlags(r, {});
    const names: string[] = [];
    while (!r.done) names.push(r.value('enumerated value name'));
    if (names.length === 0) throw new ModuleArgError('missing "source destination" pair');
    if (names.length % 2 !== 0) throw new ModuleArgError(`"${names[names.length - 1]}" has no destination (arguments come in pairs)`);
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < names.length; i += 2) pairs.push([names[i], names[i + 1]]);
    return {
      produced: pairs.map(([, d]) => d),
      consumed: pairs.map(([s]) => s),
      process(e, rt) {
        // read all sources first: `alias a b b a` swaps
        const values = pairs.map(([s]) => getEV(e, s, rt));
        pairs.forEach(([, d], i) => {
          const v = values[i];
          if (v !== undefined) e.evs.set(d, v);
        });
        return true;
      },
    };
  },
};
