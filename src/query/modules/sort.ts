/** `sort [by time|tag|src|EV] [asc|desc]` (default: by time, desc). Missing values sort last. */
import { ArgReader } from '../args';
import { pushAll } from '../arrays';
import { Token } from '../lexer';
import { Entry, RuntimeContext } from '../types';
import { compareValues, entryTieBreak, getEV } from '../values';
import { fromEntriesStates, toEntriesState } from './entry-state';
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
    return {
      produced: [],
      consumed: ['time', 'tag', 'src'].includes(key) ? [] : [key],
      nonTemporal: key !== 'time',
      condenser: {
        partial(rt) {
          const all: Entry[] = [];
          return {
            push: (entries) => pushAll(all, entries),
            state: () => toEntriesState(all.sort(sortComparator(spec, rt))),
          };
        },
        merge: (states, rt) => fromEntriesStates(states).sort(sortComparator(spec, rt)),
        local: (entries, rt) => [...entries].sort(sortComparator(spec, rt)),
      },
    };
  },
};
