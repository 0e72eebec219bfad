/** Core types shared by the query language library. */
import type { QueryLimits } from './limits';
import type { LookupTable } from './lookup-table';
import type { TimeWindows } from './time-windows';

/** Value of an enumerated value (EV) attached to an entry. */
export type EVValue = string | number | boolean | Buffer;

/** One entry flowing through a pipeline. `ts` is in epoch microseconds. */
export interface Entry {
  ts: number;
  tag: number;
  src: string;
  data: Buffer;
  evs: Map<string, EVValue>;
}

/** What the storage layer may apply before the pipeline (an optimisation only: the pipeline re-checks). */
export interface Pushdown {
  /** tag patterns (`*` wildcard), e.g. ["syslog-*", "dns"] */
  tags: string[];
  start?: Date;
  end?: Date;
  /** AND of substring conditions on DATA; `*` in a pattern is a wildcard (SQL LIKE `%`). */
  grep: Array<{ pattern: string; invert: boolean }>;
  /**
   * true: storage must deliver entries newest first. false: the result does not depend on the
   * order (an order-free condensing module), so the storage may skip sorting.
   */
  ordered: boolean;
}

/** A query that failed to parse: `moduleIndex` is 0-based over the module list (renderer included). */
export class ParseError extends Error {
  constructor(
    message: string,
    public readonly moduleIndex: number,
  ) {
    super(message);
    this.name = 'ParseError';
  }
}

/** Thrown by module/renderer argument parsers; the parser wraps it into a ParseError. */
export class ModuleArgError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModuleArgError';
  }
}

/** JSON form of an EV value (Buffers are base64 encoded). */
export type SerializedEV = string | number | boolean | { b64: string };

/** JSON form of an entry, used inside partial states. */
export interface SerializedEntry {
  ts: number;
  tag: number;
  src: string;
  data: string; // base64
  evs: Array<[string, SerializedEV]>;
}

/** Runtime facts a pipeline needs. */
export interface RuntimeContext {
  /** tag number -> name, for the TAG EV and `sort by tag` */
  tagName(tag: number): string;
  /** end of the search range (epoch µs): the time of a result that stands for no entry (a count of nothing) */
  rangeEnd: number;
  /** memory bounds of condensing modules and renderers (limits.ts) */
  limits: QueryLimits;
  /** `lookup -r`: the table loaded for a resource reference as written (`hosts`, a GUID, `@inner`) */
  lookupTable?(ref: string): LookupTable | undefined;
  /** set when the results go to a chart: stats and the math modules run over time windows (time-windows.ts) */
  windows?: TimeWindows;
  /** warnings of this run (warnings.ts addWarning), handed out with the result */
  warnings?: string[];
}

/** A resource a module reads (`lookup -r`): the reference as written and the columns it uses. */
export interface ResourceNeed {
  ref: string;
  columns: string[];
}
