/**
 * `first [-maxtracked N] [A B ...]` and `last ...`: the earliest (first) or most recent (last) entry,
 * or one per distinct combination of the EVs. After another condensing module (non-temporal data,
 * e.g. `sort by foo | first`) they take the first or last entry seen, as the product's page says.
 * More than N keys (default SEARCH_MAX_TRACKED) end the search; `-maxsize` is refused.
 */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { Entry } from '../types';
import { entryTieBreak } from '../values';
import { readCondenseFlags } from './condense-flags';
import { drainChunks, entriesOf, toEntriesState } from './entry-state';
import { ModuleDef, ModuleInstance } from './module';
import { PerKey } from './unique';

function firstLast(name: 'first' | 'last'): ModuleDef {
  const earliest = name === 'first';
  /** Replaces the kept entry of a key when the new one is earlier (first) or later (last) in time. */
  const byTime = (e: Entry, old: Entry) => (earliest ? entryTieBreak(e, old) > 0 : entryTieBreak(e, old) < 0);
  /** In a given order: first keeps the first seen, last the last seen. */
  const bySeen = () => !earliest;
  return {
    name,
    info: earliest
      ? 'Pass the earliest entry, or the earliest of each distinct combination of EVs; -maxtracked N bounds the keys'
      : 'Pass the most recent entry, or the most recent of each distinct combination of EVs; -maxtracked N bounds the keys',
    examples: [name, `json foo | ${name} foo`, `${name} -maxtracked 5000 DstIP`],
    condensing: true,
    build(args: Token[]): ModuleInstance {
      const r = new ArgReader(args);
      const { maxTracked } = readCondenseFlags(r, { maxTracked: true, unsupported: { maxsize: 'value' } });
      const names: string[] = [];
      while (!r.done) names.push(r.value('EV name'));
      return {
        produced: [],
        consumed: names,
        orderFree: true,
        groupBy: names.length ? names : undefined,
        condenser: {
          partial(rt) {
            const keys = new PerKey(name, names, maxTracked, rt, byTime);
            return { push: (entries) => keys.addAll(entries), state: () => toEntriesState(keys.sorted()) };
          },
          merge(states, rt) {
            const keys = new PerKey(name, names, maxTracked, rt, byTime);
            keys.addAll(entriesOf(states));
            return keys.sorted();
          },
          mergeChunks(states, rt) {
            const keys = new PerKey(name, names, maxTracked, rt, byTime);
            keys.addAll(entriesOf(states));
            return drainChunks(keys.sorted());
          },
          local(entries, rt) {
            const keys = new PerKey(name, names, maxTracked, rt, bySeen);
            keys.addAll(entries);
            return [...keys.kept.values()];
          },
        },
      };
    },
  };
}

export const firstModule = firstLast('first');
export const lastModule = firstLast('last');
