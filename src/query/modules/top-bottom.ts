/**
 * `top [-n N] [A B ...]` and `bottom ...`: the N entries with the largest (top, descending) or
 * smallest (bottom, ascending) values of A, then B on ties... (default: DATA; N: 10). Values must
 * be numbers: entries without a numeric value of every EV are ignored. Same result as
 * `sort by A desc | limit N`, holding only about N entries (N above SEARCH_LIMIT_MAX_ENTRIES fails
 * only when more entries than that arrive).
 */
import { ArgReader } from '../args';
import { HeldBytes } from '../held-bytes';
import { LIMIT_VARIABLES, limitExceeded } from '../limits';
import { Token } from '../lexer';
import { Entry, RuntimeContext } from '../types';
import { entryTieBreak, evToNumber, getEV } from '../values';
import { positiveInt, readCondenseFlags } from './condense-flags';
import { entriesOf, toEntriesState } from './entry-state';
import { KeepBest } from './keep-best';
import { ModuleDef, ModuleInstance } from './module';

function topBottom(name: 'top' | 'bottom'): ModuleDef {
  const dir = name === 'top' ? -1 : 1;
  return {
    name,
    info: `The N entries with the ${name === 'top' ? 'largest' : 'smallest'} numeric values of EVs (default DATA, N 10), ${name === 'top' ? 'descending' : 'ascending'}`,
    examples: [name, `json foo | ${name} foo`, `json foo bar | ${name} -n 300 foo bar`],
    condensing: true,
    sorting: true,
    build(args: Token[]): ModuleInstance {
      const r = new ArgReader(args);
      const { flags } = readCondenseFlags(r, { maxTracked: false, spec: { n: 'value' } });
      const n = flags.n === undefined ? 10 : positiveInt('-n', flags.n as string);
      const names: string[] = [];
      while (!r.done) names.push(r.value('EV name'));
      if (names.length === 0) names.push('DATA');
      const values = (e: Entry, rt: RuntimeContext): number[] | undefined => {
        const out: number[] = [];
        for (const ev of names) {
          const x = evToNumber(getEV(e, ev, rt));
          if (x === null) return undefined;
          out.push(x);
        }
        return out;
      };
      const keeper = (rt: RuntimeContext) => {
        // Values are read again on each comparison: a kept set of about N entries is compared
        // against a few of the arriving ones, never sorted as a whole.
        const cmp = (a: Entry, b: Entry) => {
          const va = values(a, rt)!;
          const vb = values(b, rt)!;
          for (let i = 0; i < va.length; i++) if (va[i] !== vb[i]) return (va[i] - vb[i]) * dir;
          return entryTieBreak(a, b);
        };
        const bound = rt.limits.limitEntries;
        const keep = new KeepBest(n, cmp, bound, () => limitExceeded(name, bound, 'entries', LIMIT_VARIABLES.limitEntries), new HeldBytes(name, rt));
        return {
          add(entries: Iterable<Entry>) {
            for (const e of entries) if (values(e, rt)) keep.add(e);
          },
          result: () => keep.result(),
        };
      };
      return {
        produced: [],
        consumed: names,
        nonTemporal: true,
        orderFree: true,
        condenser: {
          partial(rt) {
            const k = keeper(rt);
            return { push: (entries) => k.add(entries), state: () => toEntriesState(k.result()) };
          },
          merge(states, rt) {
            const k = keeper(rt);
            k.add(entriesOf(states));
            return k.result();
          },
          local(entries, rt) {
            const k = keeper(rt);
            k.add(entries);
            return k.result();
          },
        },
      };
    },
  };
}

export const topModule = topBottom('top');
export const bottomModule = topBottom('bottom');
