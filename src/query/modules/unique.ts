/**
 * `unique [-maxtracked N] [A B ...]`: one entry per distinct combination of EVs (default: DATA);
 * entries missing an EV are dropped. More than N distinct keys (default SEARCH_MAX_TRACKED) end the search.
 */
import { ArgReader } from '../args';
import { HeldBytes } from '../held-bytes';
import { limitExceeded, trackedBound } from '../limits';
import { Token } from '../lexer';
import { Entry, ModuleArgError, RuntimeContext } from '../types';
import { entryTieBreak, evToString, getEV } from '../values';
import { readCondenseFlags } from './condense-flags';
import { drainChunks, entriesOf, toEntriesState } from './entry-state';
import { ModuleDef, ModuleInstance } from './module';

/** The key of an entry (undefined when it lacks one of the EVs). */
export function keyOf(e: Entry, names: string[], rt: RuntimeContext): string | undefined {
  if (names.length === 1) {
    const v = getEV(e, names[0], rt);
    return v === undefined ? undefined : evToString(v);
  }
  const parts: string[] = [];
  for (const n of names) {
    const v = getEV(e, n, rt);
    if (v === undefined) return undefined;
    parts.push(evToString(v));
  }
  return JSON.stringify(parts);
}

/**
 * One entry per key, bounded: `prefer(a, b)` says whether a new entry replaces the kept one.
 * Shared by unique and first/last.
 */
export class PerKey {
  readonly kept = new Map<string, Entry>();
  private readonly limit: number;
  private readonly held: HeldBytes;

  constructor(
    private readonly module: string,
    private readonly names: string[],
    maxTracked: number | undefined,
    private readonly rt: RuntimeContext,
    private readonly prefer: (e: Entry, old: Entry) => boolean,
  ) {
    this.limit = trackedBound(maxTracked, rt.limits);
    this.held = new HeldBytes(module, rt);
  }

  add(e: Entry): void {
    const k = keyOf(e, this.names, this.rt);
    if (k === undefined) return;
    const old = this.kept.get(k);
    if (old === undefined) {
      if (this.kept.size >= this.limit) throw limitExceeded(this.module, this.limit, 'distinct keys', '-maxtracked');
      this.held.add(e);
      this.kept.set(k, e);
    } else if (this.prefer(e, old)) {
      this.held.remove(old);
      this.held.add(e);
      this.kept.set(k, e);
    }
  }

  addAll(entries: Iterable<Entry>): void {
    for (const e of entries) this.add(e);
  }

  /** The kept entries, newest first. */
  sorted(): Entry[] {
    return [...this.kept.values()].sort(entryTieBreak);
  }
}

/** Reads `[-maxtracked N] [-maxsize M] A B ...` (DATA when no EV is named); `over` is refused. */
export function readKeyedArgs(args: Token[]): { names: string[]; maxTracked?: number } {
  const r = new ArgReader(args);
  const { maxTracked } = readCondenseFlags(r, { maxTracked: true, unsupported: { maxsize: 'value' } });
  const names: string[] = [];
  while (!r.done) {
    if (r.peek()!.kind === 'word' && r.peek()!.value === 'over') throw new ModuleArgError('"over" time windows are not supported');
    names.push(r.value('EV name'));
  }
  if (names.length === 0) names.push('DATA');
  return { names, maxTracked };
}

const newer = (e: Entry, old: Entry) => entryTieBreak(e, old) < 0;

export const uniqueModule: ModuleDef = {
  name: 'unique',
  info: 'Pass only the first (newest) entry of each distinct combination of EVs (default: the whole data); -maxtracked N bounds the keys',
  examples: ['unique', 'unique user host', 'unique -maxtracked 5000 DstIP'],
  condensing: true,
  build(args: Token[]): ModuleInstance {
    const { names, maxTracked } = readKeyedArgs(args);
    return {
      produced: [],
      consumed: names,
      // The newest entry per key wins (entryTieBreak), whatever the arrival order.
      orderFree: true,
      groupBy: names,
      condenser: {
        partial(rt) {
          const keys = new PerKey('unique', names, maxTracked, rt, newer);
          return {
            push: (entries) => keys.addAll(entries),
            state: () => toEntriesState(keys.sorted()),
          };
        },
        merge(states, rt) {
          const keys = new PerKey('unique', names, maxTracked, rt, newer);
          keys.addAll(entriesOf(states));
          return keys.sorted();
        },
        mergeChunks(states, rt) {
          const keys = new PerKey('unique', names, maxTracked, rt, newer);
          keys.addAll(entriesOf(states));
          return drainChunks(keys.sorted());
        },
        local(entries, rt) {
          // After another condensing module: the first entry of each key in the given order.
          const keys = new PerKey('unique', names, maxTracked, rt, () => false);
          keys.addAll(entries);
          return [...keys.kept.values()];
        },
      },
    };
  },
};
