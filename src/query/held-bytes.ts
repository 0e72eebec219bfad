/**
 * Estimated memory of the entries a module holds (QueryLimits.heldMiB, SEARCH_HOLD_MAX_MB): past
 * it the search ends with a LimitError naming the module, before the worker runs out of heap.
 * The estimate counts an entry's fixed cost (object, EV map) plus its data and EV payloads.
 */
import { LIMIT_VARIABLES, limitExceeded } from './limits';
import { Entry, RuntimeContext } from './types';

const ENTRY_OVERHEAD = 200;
const EV_OVERHEAD = 48;

export function entryBytes(e: Entry): number {
  let n = ENTRY_OVERHEAD + e.data.length + e.src.length;
  for (const [k, v] of e.evs) n += EV_OVERHEAD + k.length + (typeof v === 'string' ? v.length : Buffer.isBuffer(v) ? v.length + 96 : 8);
  return n;
}

export class HeldBytes {
  private bytes = 0;
  private readonly limit: number;

  constructor(
    private readonly module: string,
    rt: RuntimeContext,
    private readonly what = 'entries',
  ) {
    this.limit = rt.limits.heldMiB * 1024 * 1024;
  }

  /** Counts `n` more bytes. */
  addBytes(n: number): void {
    this.bytes += n;
    if (this.bytes > this.limit) throw limitExceeded(this.module, this.limit / (1024 * 1024), `MiB of ${this.what} held`, LIMIT_VARIABLES.heldMiB);
  }

  /** Whether `e` can be held without going past the bound. */
  fits(e: Entry): boolean {
    return this.bytes + entryBytes(e) <= this.limit;
  }

  add(e: Entry): void {
    this.addBytes(entryBytes(e));
  }

  remove(e: Entry): void {
    this.bytes -= entryBytes(e);
  }

  /** Starts again from the entries now held (after a trim). */
  reset(entries: Iterable<Entry>): void {
    this.bytes = 0;
    for (const e of entries) this.bytes += entryBytes(e);
  }
}
