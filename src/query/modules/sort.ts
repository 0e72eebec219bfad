/** `sort [by time|tag|src|EV] [asc|desc]` (default: by time, desc). Missing values sort last. */
import { ArgReader } from '../args';
import { HeldBytes } from '../held-bytes';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Token } from '../lexer';
import { Entry, RuntimeContext } from '../types';
import { compareValues, entryTieBreak, getEV } from '../values';
import { drainChunks, entriesOf, entriesStateCount, toEntriesState } from './entry-state';
import { ModuleDef, ModuleInstance } from './module';

export interface SortSpec {
  key: string;
  desc: boolean;
}

export function sortComparator(spec: SortSpec, rt: RuntimeContext): (a: Entry, b: Entry) => number {
  const dir = spec.desc ? -1 : 1;
  return (a, b) => {
    let c = 0;
    if (spec.key === 'time') c = a.ts - b.ts;
    else if (spec.key === 'src') c = a.src < b.src ? -1 : a.src > b.src ? 1 : 0;
    else if (spec.key === 'tag') c = compareValues(rt.tagName(a.tag), rt.tagName(b.tag));
    else {
      const va = getEV(a, spec.key, rt);
      const vb = getEV(b, spec.key, rt);
      if (va === undefined || vb === undefined) {
        if (va !== vb) return va === undefined ? 1 : -1;
      } else {
        c = compareValues(va, vb);
      }
    }
    return c !== 0 ? c * dir : entryTieBreak(a, b);
  };
}

export const sortModule: ModuleDef = {
  name: 'sort',
  info: 'Sort entries by time, tag, src or an EV, ascending or descending (default: time, newest first)',
  examples: ['sort', 'sort by count desc', 'sort by src asc'],
  condensing: true,
  sorting: true,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const spec: SortSpec = { key: 'time', desc: true };
    if (r.accept('by')) spec.key = r.value('sort key after "by"');
    if (r.accept('asc')) spec.desc = false;
    else r.accept('desc');
    r.end();
    const key = spec.key;
    /** Past SEARCH_SORT_MAX_ENTRIES entries the search ends: a sort cannot answer from part of them. */
    const check = (n: number, rt: RuntimeContext) => {
      if (n > rt.limits.sortEntries) throw limitExceeded('sort', rt.limits.sortEntries, 'entries', LIMIT_VARIABLES.sortEntries);
    };
    const merged = (states: unknown[], rt: RuntimeContext): Entry[] => {
      check(entriesStateCount(states), rt);
      const held = new HeldBytes('sort', rt);
      const all: Entry[] = [];
      for (const e of entriesOf(states)) {
        held.add(e);
        all.push(e);
      }
      // Each state is sorted: the concatenation is a few runs, which the sort merges.
      return all.sort(sortComparator(spec, rt));
    };
    return {
      produced: [],
      consumed: ['time', 'tag', 'src'].includes(key) ? [] : [key],
      nonTemporal: key !== 'time',
      // Ties are broken by entryTieBreak: the order is total, whatever the arrival order.
      orderFree: true,
      condenser: {
        partial(rt) {
          const all: Entry[] = [];
          const held = new HeldBytes('sort', rt);
          return {
            push(entries) {
              check(all.length + entries.length, rt);
              for (const e of entries) {
                held.add(e);
                all.push(e);
              }
            },
            state: () => toEntriesState(all.sort(sortComparator(spec, rt))),
          };
        },
        merge: (states, rt) => merged(states, rt),
        mergeChunks: (states, rt) => drainChunks(merged(states, rt)),
        local(entries, rt) {
          check(entries.length, rt);
          const held = new HeldBytes('sort', rt);
          for (const e of entries) held.add(e);
          return [...entries].sort(sortComparator(spec, rt));
        },
      },
    };
  },
};
