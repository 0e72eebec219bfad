/** Interfaces every search module implements. */
import { Token } from '../lexer';
import { Entry, ResourceNeed, RuntimeContext } from '../types';
import type { AxDefinition } from './ax';

/** What a module's arguments are read with besides themselves. */
export interface ParseContext {
  /** the query's tag patterns (`tag=a,b*`) */
  tags: string[];
  /** `ax`: the autoextractors the caller may use, one per tag; undefined: the query is only described, never run */
  autoextractors?: readonly AxDefinition[];
}

/** Metadata served by GET /api/info/searchmodules. */
export interface SearchModuleInfo {
  Name: string;
  Info: string;
  Examples: string[];
  FrontendOnly: false;
  Sorting: boolean;
  Collapsing: boolean;
}

/** A module definition: metadata plus an argument parser producing an instance. */
export interface ModuleDef {
  name: string;
  info: string;
  examples: string[];
  /** true for modules that must see all entries (count, stats, sort, limit, unique...) */
  condensing: boolean;
  sorting?: boolean;
  /** Parses arguments; throws ModuleArgError on bad arguments. */
  build(args: Token[], ctx?: ParseContext): ModuleInstance;
}

/** A parsed, ready-to-run module. */
export interface ModuleInstance {
  produced: string[];
  consumed: string[];
  /** true when this module turns the result non-temporal (aggregation without `over`, sort by non-time) */
  nonTemporal?: boolean;
  /**
   * stats and the math modules: before a renderer that draws over time (chart) they run over time
   * windows (time-windows.ts), temporal then even without `over`; `over` is the window asked for (µs).
   */
  timeWindow?: { over?: number };
  /** set by grep on DATA: conditions the storage layer may apply (AND) */
  pushdownGrep?: Array<{ pattern: string; invert: boolean }>;
  /** Non-condensing modules: filter/extract one entry in place; false drops it. */
  process?(e: Entry, rt: RuntimeContext): boolean;
  /** `keep`: the only EVs an entry holds after this module (downloads drop the other columns). */
  keepOnly?: string[];
  /** Non-condensing modules that turn one entry into several (split), instead of `process`: the entries that replace it (none drops it). */
  expand?(e: Entry, rt: RuntimeContext): Entry[];
  /** Condensing modules. */
  condenser?: Condenser;
  /** Condensing modules whose output does not depend on the order entries arrive in. */
  orderFree?: boolean;
  /** Condensing modules with keys (`count by A B`, `unique A`): the EVs their output is keyed on (wordcloud words). */
  groupBy?: string[];
  /** Warnings of a run known from the tags it reads (`ax`: a tag without an autoextractor), added when its collapser starts. */
  collapseWarnings?(rt: RuntimeContext, tagNames: string[]): void;
  /** Resources the module reads (`lookup -r`); the search loads them before compiling. */
  resources?: ResourceNeed[];
}

/** Per-indexer accumulator of a condensing module. `state()` must be JSON-serialisable. */
export interface PartialAccumulator {
  push(entries: Entry[]): void;
  state(): unknown;
}

/**
 * A condensing module in three parts:
 * - `partial()` runs on each indexer (after the distributed modules) and yields a JSON state;
 * - `merge(states)` runs once at the web server and produces the module's output entries;
 * - `local(entries)` runs the module on an already-collapsed, ordered stream (a condensing
 *   module placed after another one), honouring the input order.
 */
export interface Condenser {
  partial(rt: RuntimeContext): PartialAccumulator;
  merge(states: unknown[], rt: RuntimeContext): Entry[];
  /** Optional: `merge` as a sequence of chunks (used when no condensing module follows), so the output need not be held at once. */
  mergeChunks?(states: unknown[], rt: RuntimeContext): Iterable<Entry[]>;
  local(entries: Entry[], rt: RuntimeContext): Entry[];
}

export function moduleInfo(d: ModuleDef): SearchModuleInfo {
  return {
    Name: d.name,
    Info: d.info,
    Examples: d.examples,
    FrontendOnly: false,
    Sorting: d.sorting ?? false,
    Collapsing: d.condensing,
  };
}
