/**
 * runQueryInMemory: the whole execution model on an in-memory entry list, spread over N simulated
 * indexers (round-robin), with JSON round-trips of partial states. For tests and for other features.
 */
import { CompileOptions, compileQuery, CompiledQuery } from './planner';
import { RenderResult } from './renderers/renderer';
import { tagMatcher } from './tags';
import { Entry } from './types';
import { cloneEntry } from './values';

export interface InMemoryOptions extends CompileOptions {
  /** number of simulated indexers (default 1) */
  indexers?: number;
  /** entries per batch pushed into each distributed runner (default 1000) */
  batchSize?: number;
}

export interface InMemoryResult {
  compiled: CompiledQuery;
  result: RenderResult;
}

/** Applies what storage would: tags, time range [start, end). Entries are copied, never mutated. */
function scan(compiled: CompiledQuery, entries: Entry[]): Entry[] {
  const matches = tagMatcher(compiled.pushdown.tags);
  const from = compiled.start.getTime() * 1000;
  const to = compiled.end.getTime() * 1000;
  return entries.filter((e) => e.ts >= from && e.ts < to && matches(compiled.runtime.tagName(e.tag))).map(cloneEntry);
}

export function runQueryInMemory(query: string, entries: Entry[], opts: InMemoryOptions): InMemoryResult {
  const compiled = compileQuery(query, opts);
  const n = Math.max(1, opts.indexers ?? 1);
  const batchSize = Math.max(1, opts.batchSize ?? 1000);
  const shards: Entry[][] = Array.from({ length: n }, () => []);
  scan(compiled, entries).forEach((e, i) => shards[i % n].push(e));
  const collapser = compiled.createCollapser();
  for (const shard of shards) {
    // Storage scans newest first when the query needs it; otherwise feed the opposite order,
    // so tests prove that order-free queries really do not depend on it.
    shard.sort(compiled.pushdown.ordered ? (a, b) => b.ts - a.ts : (a, b) => a.ts - b.ts);
    const runner = compiled.createDistributed();
    for (let i = 0; i < shard.length; i += batchSize) {
      const out = runner.push(shard.slice(i, i + batchSize));
      if (compiled.streaming) collapser.addEntries(out);
    }
    const partial = runner.finish();
    if (partial) collapser.addPartial(JSON.parse(JSON.stringify(partial)));
  }
  return { compiled, result: collapser.finish() };
}
