/**
 * `limit N` keeps N entries, `limit N M` keeps entries N..M-1 (0-based).
 * On raw (time-ordered) data that means the newest ones; after another condensing module, the first ones.
 */
import { ArgReader } from '../args';
import { pushAll } from '../arrays';
import { Token } from '../lexer';
import { Entry, ModuleArgError } from '../types';
import { entryTieBreak } from '../values';
import { fromEntriesStates, toEntriesState } from './entry-state';
import { ModuleDef, ModuleInstance } from './module';

function readCount(r: ArgReader, what: string): number {
  const t = r.value(what);
  if (!/^\d+$/.test(t)) throw new ModuleArgError(`invalid ${what} "${t}"`);
  return Number(t);
}

/** Keeps the `n` newest entries. */
function newest(entries: Entry[], n: number): Entry[] {
  return entries.sort(entryTieBreak).slice(0, n);
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
    if (!r.done) {
      from = to;
      to = readCount(r, 'end of range');
      if (to <= from) throw new ModuleArgError(`empty range ${from}..${to}`);
    }
    r.end();
    return {
      produced: [],
      consumed: [],
      // Entries are ranked by entryTieBreak, not by arrival.
      orderFree: true,
      condenser: {
        partial() {
          let kept: Entry[] = [];
          return {
            push(entries) {
              pushAll(kept, entries);
              if (kept.length > 2 * to + 1024) kept = newest(kept, to);
            },
            state: () => toEntriesState(newest(kept, to)),
          };
        },
        merge: (states) => newest(fromEntriesStates(states), to).slice(from),
        local: (entries) => entries.slice(from, to),
      },
    };
  },
};
