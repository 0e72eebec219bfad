/**
 * Worker-thread side of QueryWork (query-work.ts): describes and compiles queries and parses
 * lookup tables, so none of it runs on the HTTP event loop. Never imports Nest.
 */
import { workerData } from 'node:worker_threads';
import { AppError } from '../common/errors/app-error';
import { compileSearch } from '../indexer/search-executor';
import { attributeParseError, AxDefinition, describeQuery, LookupTableError, MacroExpansion, parseCsvTable, QueryDescription, QueryLimits, queryTimeZoomDisabled } from '../query';
import { serveTasks, TaskError, threadCpuMs } from './task-thread';

export interface CompileInput {
  query: string;
  startMs: number;
  endMs: number;
  nowMs: number;
  limits: QueryLimits;
  /** A first compile over this (thread CPU ms) is timed again, warm, before it counts. */
  maxMs: number;
  /** The macros `query` was expanded from (src/query/macros.ts): a parse error names the macro it came from. */
  expansion?: MacroExpansion;
  /** the `ax` definitions the caller may use (QUERY_AUTOEXTRACTORS) */
  autoextractors?: AxDefinition[];
}

/** A query to describe: the text, the macros it was expanded from and the `ax` definitions, if any. */
export interface DescribeInput {
  query: string;
  expansion?: MacroExpansion;
  autoextractors?: AxDefinition[];
}

/**
 * The description of a query expanded from macros: RawQuery is what the user wrote, ParsedQuery
 * the expanded query, and a parse error names the macro it came from with the module index of
 * the call in the user's text.
 */
function describeExpanded(input: DescribeInput): QueryDescription {
  const d = describeQuery(input.query, { autoextractors: input.autoextractors ?? [] });
  const x = input.expansion;
  if (!x || !x.spans.length) return d;
  if (d.GoodQuery) return { ...d, RawQuery: x.raw };
  const { message, moduleIndex } = attributeParseError(x, d.ParseError ?? '', d.ModuleIndex);
  return { ...d, RawQuery: x.raw, ParseError: message, ModuleIndex: moduleIndex };
}

/** What the web server learns from a compile besides "it compiles". */
export interface CompileFacts {
  /** thread CPU time of the compile, ms (the faster of two when the first was over `maxMs`) */
  cpuMs: number;
  /** TimeZoomDisabled of the effective query (SearchInfo), so the web server need not parse it again */
  timeZoomDisabled: boolean;
}

export interface TableInput {
  bytes: Uint8Array;
  maxBytes: number;
}

function compileOnce(c: CompileInput): { cpuMs: number; effectiveQuery: string } {
  const before = threadCpuMs();
  try {
    const s = compileSearch(c.query, { range: { start: new Date(c.startMs), end: new Date(c.endMs) }, now: new Date(c.nowMs), limits: c.limits, autoextractors: c.autoextractors });
    return { cpuMs: threadCpuMs() - before, effectiveQuery: s.compiled.parsed.effectiveQuery };
  } catch (err) {
    if (err instanceof AppError && err.code === 'QUERY_INVALID' && c.expansion?.spans.length) {
      const d = describeExpanded({ query: c.query, expansion: c.expansion, autoextractors: c.autoextractors });
      if (!d.GoodQuery && d.ParseError) throw new TaskError(err.status, d.ParseError, err.code);
    }
    if (err instanceof AppError) throw new TaskError(err.status, err.message, err.code);
    throw err;
  }
}

if ((workerData as { kind?: string } | null)?.kind === 'query') {
  serveTasks({
    describe: async (input) => ({ output: describeExpanded(input as DescribeInput) }),
    describeJson: async (input) => ({ output: JSON.stringify(describeExpanded(input as DescribeInput)) }),
    compile: async (input) => {
      const c = input as CompileInput;
      const first = compileOnce(c);
      // The first compile of a thread runs cold code: time a slow one again before refusing it.
      const cpuMs = first.cpuMs > c.maxMs ? Math.min(first.cpuMs, compileOnce(c).cpuMs) : first.cpuMs;
      const effectiveQuery = first.effectiveQuery;
      const facts: CompileFacts = { cpuMs, timeZoomDisabled: queryTimeZoomDisabled(effectiveQuery) };
      return { output: facts };
    },
    table: async (input) => {
      const t = input as TableInput;
      try {
        return { output: parseCsvTable(t.bytes, { maxBytes: t.maxBytes }) };
      } catch (err) {
        if (err instanceof LookupTableError) throw new TaskError(400, err.message, 'LOOKUP_TABLE_INVALID');
        throw err;
      }
    },
  });
}
