/** `unique [A B ...]`: one entry per distinct combination of EVs (default: DATA); entries missing an EV are dropped. */
import { ArgReader } from '../args';
import { Token } from '../lexer';
import { Entry, RuntimeContext } from '../types';
import { entryTieBreak, evToString, getEV } from '../values';
import { fromEntriesStates, toEntriesState } from './entry-state';
import { ModuleDef, ModuleInstance } from './module';

function keyOf(e: Entry, names: string[], rt: RuntimeContext): string | undefined {
  const parts: string[] = [];
  for (const n of names) {
    const v = getEV(e, n, rt);
    if (v === undefined) return undefined;
    parts.push(evToString(v));
  }
  return JSON.stringify(parts);
}

/** Keeps, per key, the first entry in the given order. */
function firstPerKey(entries: Entry[], names: string[], rt: RuntimeContext, into = new Map<string, Entry>()): Map<string, Entry> {
  for (const e of entries) {
    const k = keyOf(e, names, rt);
    if (k !== undefined && !into.has(k)) into.set(k, e);
  }
  return into;
}

/** Keeps, per key, the newest entry (deterministic whatever the arrival order). */
function newestPerKey(entries: Entry[], names: string[], rt: RuntimeContext): Entry[] {
  return [...firstPerKey([...entries].sort(entryTieBreak), names, rt).values()];
}

export const uniqueModule: ModuleDef = {
  name: 'unique',
  info: 'Pass only the first (newest) entry of each distinct combination of EVs (default: the whole data)',
  examples: ['unique', 'unique user host'],
  condensing: true,
  build(args: Token[]): ModuleInstance {
    const r = new ArgReader(args);
    const names: string[] = [];
    while (!r.done) names.push(r.value('EV name'));
    if (names.length === 0) names.push('DATA');
    return {
      produced: [],
      consumed: names,
      // The newest entry per key wins (entryTieBreak), whatever the arrival order.
      orderFree: true,
      condenser: {
        partial(rt) {
          const kept = new Map<string, Entry>();
          return {
            push(entries) {
              for (const e of entries) {
                const k = keyOf(e, names, rt);
                if (k === undefined) continue;
                const old = kept.get(k);
                if (!old || entryTieBreak(e, old) < 0) kept.set(k, e);
              }
            },
            state: () => toEntriesState([...kept.values()].sort(entryTieBreak)),
          };
        },
        merge: (states, rt) => newestPerKey(fromEntriesStates(states), names, rt),
        local: (entries, rt) => [...firstPerKey(entries, names, rt).values()],
      },
    };
  },
};
