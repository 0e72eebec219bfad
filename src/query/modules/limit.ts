/**
 * `limit N` keeps N entries, `limit N M` keeps entries N..M-1 (0-based).
 * On raw (time-ordered) data that means the newest ones; after another condensing module, the first ones.
 * It holds at most M entries (plus slack while trimming); an M above SEARCH_LIMIT_MAX_ENTRIES fails
 * only when more entries than that arrive.
 */
import { ArgReader } from '../args';
import { HeldBytes } from '../held-bytes';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Token } from '../lexer';
import { ModuleArgError, RuntimeContext } from '../types';
import { entryTieBreak } from '../values';
import { entriesOf, toEntriesState } from './entry-state';
import { KeepBest } from './keep-best';
import { ModuleDef, ModuleInstance } from './module';

function readCount(r: ArgReader, what: string): number {
  const t = r.value(what);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t))) throw new ModuleArgError(`invalid ${what} "${t}"`);
  return Number(t);
}

/** Keeps the `n` newest entries. */
function newest(n: number, rt: RuntimeContext): KeepBest {
  const bound = rt.limits.limitEntries;
  return new KeepBest(n, entryTieBreak, bound, () => limitExceeded('limit', bound, 'entries', LIMIT_VARIABLES.limitEntries), new HeldBytes('limit', rt));
}

export const limitModule: ModuleDef = {
  name: 'limit',
  info: 'Pass only N entries (newest first), or the range N..M',
  examples: ['limit 10', 'limit 10 20'],
  condensing: true,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    let from = 0;
    let to = readCount(r, 'count');
    if (!r.done && r.peek()!.value !== 'by') {
      from = to;
      to = readCount(r, 'end of range');
      if (to <= from) throw new ModuleArgError(`empty range ${from}..${to}`);
    }
    if (r.accept('by')) throw new ModuleArgError('"limit N by X" is not supported');
    r.end();
    return {
      produced: [],
      consumed: [],
      // Entries are ranked by entryTieBreak, not by arrival.
      orderFree: true,
      condenser: {
        partial(rt) {
          const keep = newest(to, rt);
          return {
            push: (entries) => keep.addAll(entries),
            state: () => toEntriesState(keep.result()),
          };
        },
        merge(states, rt) {
          const keep = newest(to, rt);
          keep.addAll(entriesOf(states));
          return keep.result().slice(from);
        },
        local: (entries) => entries.slice(from, to),
      },
    };
  },
};
