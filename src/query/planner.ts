/**
 * Planner: compiles a parsed query into a storage pushdown, a distributed part (one runner per
 * indexer) and a collapsing part (merge + remaining modules + renderer, once at the web server).
 */
import { pushAll } from './arrays';
import { checkLookups } from './compound';
import type { LookupTable } from './lookup-table';
import { QueryLimits, resolveLimits } from './limits';
import type { AxDefinition } from './modules/ax';
import { ParsedModule, parseQuery, ParsedQuery } from './parser';
import { Renderer, RenderResult, DownloadFormat } from './renderers/renderer';
import { resolveTimeExpr } from './time';
import { rangeWindows, windowWidth } from './time-windows';
import { Entry, ParseError, Pushdown, RuntimeContext } from './types';
import { ensureBuffers } from './values';

export interface CompileOptions {
  /** the request's time range (overridden by start=/end= in the query) */
  start: Date;
  end: Date;
  /** reference for relative times; default: the current time */
  now?: Date;
  /** tag number -> name, for the TAG EV and `sort by tag` (unknown numbers render as digits) */
  tagNames?: ReadonlyMap<number, string> | Record<number, string>;
  /** `lookup -r` tables by reference as written (`hosts`, a GUID, `@inner`); checked against the query's needs */
  lookups?: ReadonlyMap<string, LookupTable>;
  /** memory bounds of condensing modules and renderers; unset ones take DEFAULT_QUERY_LIMITS (limits.ts) */
  limits?: Partial<QueryLimits>;
  /** `ax`: the autoextractors the caller may use (QUERY_AUTOEXTRACTORS); a query with `ax` and none is refused */
  autoextractors?: readonly AxDefinition[];
}

/** Partial state of the first condensing module, as sent by one indexer. JSON-serialisable. */
export interface PartialState {
  module: string;
  index: number;
  state: unknown;
}

/** Runs the distributed part on one indexer. */
export interface DistributedRunner {
  /** Streaming queries: returns the surviving entries. Condensing queries: absorbs them, returns []. */
  push(batch: Entry[]): Entry[];
  /** Condensing queries: the partial state to send to the web server; streaming queries: null. */
  finish(): PartialState | null;
}

/** Runs the collapsing part at the web server. */
export interface Collapser {
  /** Streaming queries: entries from any indexer, in any order. Returns them (for the render store). */
  addEntries(entries: Entry[]): Entry[];
  /** Condensing queries: one indexer's partial state. */
  addPartial(p: PartialState): void;
  /** Merges, runs the remaining modules and the renderer. */
  finish(): RenderResult;
}

export interface CollapserOptions {
  /** false: text/raw of a streaming query keep no entries (the caller persists what addEntries returns). Default true. */
  retainEntries?: boolean;
}

export interface CompiledQuery {
  parsed: ParsedQuery;
  pushdown: Pushdown;
  /** effective time range after start=/end= */
  start: Date;
  end: Date;
  queryTimeSpecified: boolean;
  collapsingIndex: number;
  /** no condensing module: distributed runners emit final entries */
  streaming: boolean;
  renderModule: string;
  downloadFormats: DownloadFormat[];
  runtime: RuntimeContext;
  createDistributed(): DistributedRunner;
  createCollapser(opts?: CollapserOptions): Collapser;
}

export function makeRuntime(tagNames: CompileOptions['tagNames'], end: Date, limits?: Partial<QueryLimits>): RuntimeContext {
  const lookup = (n: number): string | undefined => (tagNames instanceof Map ? tagNames.get(n) : (tagNames as Record<number, string> | undefined)?.[n]);
  return { tagName: (n) => lookup(n) ?? String(n), rangeEnd: end.getTime() * 1000, limits: resolveLimits(limits) };
}

function applyModules(mods: ParsedModule[], entries: Entry[], rt: RuntimeContext): Entry[] {
  let out = entries;
  for (const m of mods) {
    const inst = m.instance;
    if (inst.condenser) out = inst.condenser.local(out, rt);
    else if (inst.expand) out = out.flatMap((e) => inst.expand!(e, rt));
    else out = out.filter((e) => inst.process!(e, rt));
  }
  return out;
}

function pushdownGrep(p: ParsedQuery): Pushdown['grep'] {
  const out: Pushdown['grep'] = [];
  for (const m of p.modules) {
    if (!m.instance.pushdownGrep) break;
    pushAll(out, m.instance.pushdownGrep);
  }
  return out;
}

/** Parses (if needed) and compiles a query. Throws ParseError for an invalid query. */
/** What the last condensing module that produced values made, without its keys (a bare chart draws these). */
function lastAggregateValues(parsed: ParsedQuery): string[] {
  const m = [...parsed.modules].reverse().find((x) => x.instance.condenser && x.instance.produced.length);
  if (!m) return [];
  const keys = new Set(m.instance.groupBy ?? []);
  return m.instance.produced.filter((p) => !keys.has(p));
}

export function compileQuery(query: string | ParsedQuery, opts: CompileOptions): CompiledQuery {
  const parsed = typeof query === 'string' ? parseQuery(query, { autoextractors: opts.autoextractors ?? [] }) : query;
  const now = opts.now ?? new Date();
  const c = parsed.constraints;
  const start = c.start ? resolveTimeExpr(c.start.text, c.start.quoted, { now, start: opts.start, end: opts.end }) : opts.start;
  const end = c.end ? resolveTimeExpr(c.end.text, c.end.quoted, { now, start, end: opts.end }) : opts.end;
  if (end.getTime() < start.getTime()) throw new ParseError('ConstraintError: end is before start', 0);
  const rt = makeRuntime(opts.tagNames, end, opts.limits);
  // Results drawn over time: stats and the math modules run over time windows (time-windows.ts).
  const windowed = parsed.renderer.def.timeWindows === true ? [...parsed.modules].reverse().find((m) => m.instance.timeWindow) : undefined;
  if (windowed) rt.windows = rangeWindows(start.getTime() * 1000, end.getTime() * 1000);
  const lookups = opts.lookups;
  if (lookups) {
    checkLookups(parsed, lookups);
    rt.lookupTable = (ref) => lookups.get(ref);
  }
  const ci = parsed.collapsingIndex;
  const distributed = parsed.modules.slice(0, ci);
  const condensing = parsed.modules[ci] as ParsedModule | undefined;
  const after = parsed.modules.slice(ci + 1);
  const streaming = condensing === undefined;
  return {
    parsed,
    pushdown: { tags: c.tags, start, end, grep: pushdownGrep(parsed), ordered: !condensing?.instance.orderFree },
    start,
    end,
    queryTimeSpecified: parsed.timeSpecified,
    collapsingIndex: ci,
    streaming,
    renderModule: parsed.renderer.name,
    downloadFormats: parsed.renderer.def.formats,
    runtime: rt,
    createDistributed(): DistributedRunner {
      const acc = condensing?.instance.condenser!.partial(rt);
      return {
        push(batch) {
          const out = applyModules(distributed, ensureBuffers(batch), rt);
          if (!acc) return out;
          acc.push(out);
          return [];
        },
        finish: () => (acc && condensing ? { module: condensing.name, index: condensing.index, state: acc.state() } : null),
      };
    },
    createCollapser(copts: CollapserOptions = {}): Collapser {
      rt.warnings = undefined; // this collapser's run only
      const tags = opts.tagNames instanceof Map ? [...opts.tagNames.values()] : Object.values(opts.tagNames ?? {});
      for (const m of parsed.modules) m.instance.collapseWarnings?.(rt, tags);
      const renderer: Renderer = parsed.renderer.instance.create(rt, {
        timeOrder: streaming,
        // A condensing query's entries reach the renderer only in finish(), where nobody else can keep them.
        retainEntries: !streaming || (copts.retainEntries ?? true),
        keys: [...parsed.modules].reverse().find((m) => m.instance.groupBy)?.instance.groupBy ?? [],
        values: lastAggregateValues(parsed),
        windows: windowed && rt.windows ? { ...rt.windows, width: windowWidth(windowed.instance.timeWindow!.over, rt.windows).width } : undefined,
      });
      const states: unknown[] = [];
      return {
        addEntries(entries) {
          if (!streaming) throw new Error('addEntries() is for streaming queries; use addPartial()');
          renderer.push(ensureBuffers(entries));
          return entries;
        },
        addPartial(p) {
          if (!condensing || p.index !== condensing.index) throw new Error(`unexpected partial state for module ${p.module}`);
          states.push(p.state);
        },
        finish() {
          const cond = condensing?.instance.condenser;
          if (cond?.mergeChunks && !after.some((m) => m.instance.condenser)) {
            // The merged output reaches the renderer a chunk at a time: a million groups are never a million entries at once.
            for (const chunk of cond.mergeChunks(states.splice(0), rt)) renderer.push(applyModules(after, chunk, rt));
          } else if (cond) {
            renderer.push(applyModules(after, cond.merge(states, rt), rt));
          }
          const result = renderer.result();
          if (rt.warnings?.length) result.Warnings = [...rt.warnings];
          return result;
        },
      };
    },
  };
}
