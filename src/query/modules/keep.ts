/** `keep EV ...`: removes every enumerated value not named; never drops an entry. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { ModuleArgError } from '../types';
import { ModuleDef, ModuleInstance } from './module';
import { readFlags } from './extract-common';
import { checkName } from './transform-common';

export const keepModule: ModuleDef = {
  name: 'keep',
  info: 'Remove every enumerated value except the ones named (the entry data, SRC, TAG and TIMESTAMP stay); entries are never dropped',
  examples: ['keep foo bar', 'json fruit vegetables | keep fruit'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    readFlags(r, {});
    const names = new Set<string>();
    while (!r.done) names.add(checkName(r.value('enumerated value name'), 'enumerated value name'));
    if (names.size === 0) throw new ModuleArgError('missing enumerated value name, e.g. keep foo bar');
    return {
      produced: [],
      consumed: [...names],
      keepOnly: [...names],
      process(e) {
        for (const k of [...e.evs.keys()]) if (!names.has(k)) e.evs.delete(k);
        return true;
      },
    };
  },
};
