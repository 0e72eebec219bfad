/**
 * The run of a whole search around the executor's single-query run: a compound query's inner
 * queries first (in order, over the same range and `now`, each compiled once here with the tables
 * before it and run with its own admission so that none waits for a slot its own search holds),
 * their tables added to the lookup tables, then the main query within what remains of the time
 * limit, then `table -save` (SearchResources.onResult).
 */
import { AppError, refusal } from '../common/errors/app-error';
import { checkLookups, LookupTable, LookupTableError, runInnerQueries } from '../query';
import { badQuery, CompiledSearch, compileSearch, SearchRunOptions, SearchRunResult, SearchSink } from './search-executor';

export type RunOne = (search: CompiledSearch, sink: SearchSink, opts: SearchRunOptions) => Promise<SearchRunResult>;

const NO_SINK: SearchSink = { entries: () => undefined };

/**
 * `limits.timeoutMs` bounds a compound search as a whole (from the start of its first inner
 * query); `limits.lookupMaxBytes` bounds each inner table. A plain query runs as it is.
 */
export async function runSearch(
  search: CompiledSearch,
  sink: SearchSink,
  opts: SearchRunOptions,
  limits: { timeoutMs: number; lookupMaxBytes: number },
  runOne: RunOne,
): Promise<SearchRunResult> {
  const parsed = search.compiled.parsed;
  let runOpts = opts;
  if (parsed.inner?.length) {
    const deadline = Date.now() + limits.timeoutMs;
    const remaining = () => Math.max(1, deadline - Date.now());
    const runInner = async (q: string, tables: ReadonlyMap<string, LookupTable>, name: string) => {
      const innerOpts: SearchRunOptions = { signal: opts.signal, owner: opts.owner, lookups: tables, timeoutMs: remaining(), retainEntries: true };
      try {
        const inner = compileSearch(q, { range: search.range, now: search.now, limits: search.limits, lookups: tables, autoextractors: search.autoextractors });
        return (await runOne(inner, NO_SINK, innerOpts)).result;
      } catch (err) {
        // Name the inner query in its failures (a timeout or a cancel stays as it is).
        if (err instanceof AppError && err.status === 400 && !opts.signal.aborted) throw refusal('INNER_QUERY_FAILED', name, err.message);
        throw err;
      }
    };
    try {
      const lookups = await runInnerQueries(parsed, opts.lookups ?? new Map(), runInner, limits.lookupMaxBytes);
      runOpts = { ...opts, lookups, timeoutMs: remaining() };
    } catch (err) {
      if (err instanceof LookupTableError) throw refusal('LOOKUP_TABLE_TOO_LARGE', err.message);
      throw err;
    }
  }
  // Every table the main query reads is loaded now: check them all (at launch `@name` ones were not there yet).
  const tables = runOpts.lookups;
  if (tables) badQuery(() => checkLookups(parsed, tables));
  const r = await runOne(search, sink, runOpts);
  await opts.onResult?.(r.result);
  return r;
}
