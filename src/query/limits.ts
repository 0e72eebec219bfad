/**
 * Memory bounds of the condensing modules and renderers. The service reads one environment
 * variable per bound (src/config) and passes them in through CompileOptions.limits; a search that
 * goes past one ends with a LimitError naming the module and the limit, never a partial answer.
 */

export interface QueryLimits {
  /**
   * Default `-maxtracked`: distinct groups (or values) one operation of count/sum/mean/min/max/
   * stddev/variance/stats, unique, first and last tracks. SEARCH_MAX_TRACKED.
   */
  maxTracked: number;
  /** Entries `sort` holds. SEARCH_SORT_MAX_ENTRIES. */
  sortEntries: number;
  /** Entries `limit N` and `top`/`bottom -n N` hold (a larger N only fails when that many arrive). SEARCH_LIMIT_MAX_ENTRIES. */
  limitEntries: number;
  /** Rows, series cells, bars, words or entries a renderer holds (table, chart, stackgraph, wordcloud, text kept in memory). SEARCH_RENDER_MAX_ROWS. */
  renderRows: number;
  /**
   * Estimated MiB of entries (or table cells) one module or renderer holds: sort, limit, unique,
   * first/last, top/bottom, table, text kept in memory. Keeps a search under the worker's heap
   * with a clear error rather than running out of memory. SEARCH_HOLD_MAX_MB.
   */
  heldMiB: number;
  /** Steps one eval program may take on one entry (loops, calls, bulk work). EVAL_MAX_STEPS. */
  evalSteps: number;
}

/** The product's `-maxtracked` default is 1,000,000; the other bounds match it. */
export const DEFAULT_QUERY_LIMITS: Readonly<QueryLimits> = {
  maxTracked: 1_000_000,
  sortEntries: 1_000_000,
  limitEntries: 1_000_000,
  renderRows: 1_000_000,
  heldMiB: 256,
  evalSteps: 100_000,
};

/** The environment variable of each bound, as named in error messages. */
export const LIMIT_VARIABLES: Readonly<Record<keyof QueryLimits, string>> = {
  maxTracked: 'SEARCH_MAX_TRACKED',
  sortEntries: 'SEARCH_SORT_MAX_ENTRIES',
  limitEntries: 'SEARCH_LIMIT_MAX_ENTRIES',
  renderRows: 'SEARCH_RENDER_MAX_ROWS',
  heldMiB: 'SEARCH_HOLD_MAX_MB',
  evalSteps: 'EVAL_MAX_STEPS',
};

export function resolveLimits(partial: Partial<QueryLimits> | undefined): QueryLimits {
  const out = { ...DEFAULT_QUERY_LIMITS };
  for (const k of Object.keys(out) as Array<keyof QueryLimits>) {
    const v = partial?.[k];
    if (v !== undefined && Number.isSafeInteger(v) && v > 0) out[k] = v;
  }
  return out;
}

/** A search went past a memory bound: the query (or the bound) must change. */
export class LimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitError';
  }
}

/** `count: more than 1000000 distinct groups (-maxtracked)`. */
export function limitExceeded(module: string, limit: number, what: string, setting: string): LimitError {
  return new LimitError(`${module}: more than ${limit} ${what} (${setting})`);
}

/** The bound of a module with a `-maxtracked` flag: the flag when given, else the configured default. */
export const trackedBound = (flag: number | undefined, limits: QueryLimits): number => flag ?? limits.maxTracked;
