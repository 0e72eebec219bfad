/**
 * `nosort`: the product uses it to turn off the time sort it would insert. Here no module ever
 * needs sorted input (condensing modules are order-free and scan unordered already) and results
 * are always shown newest first, so it is accepted and changes nothing. `-asc` (read oldest
 * first) is refused: results would still come newest first.
 */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { readCondenseFlags } from './condense-flags';
import { ModuleDef, ModuleInstance } from './module';

export const nosortModule: ModuleDef = {
  name: 'nosort',
  info: 'Accepted for compatibility; changes nothing (no module here needs sorted input)',
  examples: ['tag=syslog nosort', 'tag=syslog nosort | count by host'],
  condensing: false,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    readCondenseFlags(r, { maxTracked: false, unsupported: { asc: 'bool' } });
    r.end();
    return { produced: [], consumed: [], process: () => true };
  },
};
