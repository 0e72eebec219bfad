/**
 * The run of a whole search around the executor's single-query run: a compound query's inner
 * queries first (in order, over the same range, each with its own admission so that none waits
 * for a slot its own search holds), their tables added to the lookup tables, then the main query
 * within what remains of the time limit, then `table -save` (SearchResources.onResult).
 */
import { AppError, badRequest } from '../common/errors/app-error';
import { LookupTable, LookupTableError, ParseError, ParsedQuery, parseQuery, runInnerQueries } from '../query';
import { SearchRunOptions, SearchRunResult, SearchSink } from './search-executor';

export type RunOne = (query: string, sink: SearchSink, opts: SearchRunOptions) => Promise<SearchRunResult>;

const NO_SINK: SearchSink = { entries: () => undefined };

function parse(query: string): ParsedQuery {
  try {
    return parseQuery(query);
  } catch (err) {
    if (err instanceof ParseError) throw badRequest(err.message);
    throw err;
  }
}

/**
 * `limits.timeoutMs` bounds a compound search as a whole (from the start of its first inner
 * query); `limits.lookupMaxBytes` bounds each inner table. A plain query runs as it is.
 */
export async function runSearch(query: string, sink: SearchSink, opts: SearchRunOptions, limits: { timeoutMs: number; lookupMaxBytes: number }, runOne: RunOne): Promise<SearchRunResult> {
  const parsed = parse(query);
  let runOpts = opts;
  if (parsed.inner?.length) {
    const deadline = Date.now() + limits.timeoutMs;
    const remaining = () => Math.max(1, deadline - Date.now());
    // One reference time for every part, so relative times (`start=-1h`) agree.
    const now = opts.now ?? new Date();
    const runInner = async (q: string, tables: ReadonlyMap<string, LookupTable>, name: string) => {
      const innerOpts: SearchRunOptions = { signal: opts.signal, now, owner: opts.owner, lookups: tables, timeoutMs: remaining(), retainEntries: true };
      try {
        return (await runOne(q, NO_SINK, innerOpts)).result;
      } catch (err) {
        // Name the inner query in its failures (a timeout or a cancel stays as it is).
        if (err instanceof AppError && err.status === 400 && !opts.signal.aborted) throw badRequest(`Inner query @${name}: ${err.message}`);
        throw err;
      }
    };
    try {
      const lookups = await runInnerQueries(parsed, opts.lookups ?? new Map(), runInner, limits.lookupMaxBytes);
      runOpts = { ...opts, now, lookups, timeoutMs: remaining() };
    } catch (err) {
      if (err instanceof LookupTableError) throw badRequest(`${err.message} (LOOKUP_MAX_BYTES)`);
      throw err;
    }
  }
  const r = await runOne(query, sink, runOpts);
  await opts.onResult?.(r.result);
  return r;
}
