/** `describeQuery`: the ParseSearchResponse body of POST /api/parse (the caller adds `Sequence`). */
import { parseQuery, ParsedQuery, QueryContext } from './parser';
import { SideEffect, sideEffectsOf } from './side-effects';
import { ParseError } from './types';

export interface ModuleHint {
  Name: string;
  ProducedEVs: string[] | null;
  ConsumedEVs: string[] | null;
  /** resources the module reads, as written (`lookup -r hosts` -> ["hosts"]); null for none */
  ResourcesNeeded: string[] | null;
  Condensing: boolean;
}

export interface QueryDescription {
  GoodQuery: boolean;
  ParseError?: string;
  ParsedQuery: string;
  RawQuery: string;
  ModuleIndex: number;
  CollapsingIndex: number;
  RenderModule: string;
  TimeZoomDisabled: boolean;
  Tags: string[];
  ModuleHints: ModuleHint[];
  /** What the query changes outside its search (`table -save`...): the console confirms before running someone else's query that has any. */
  SideEffects: SideEffect[];
}

const orNull = (xs: string[]): string[] | null => (xs.length ? xs : null);

/**
 * True when the result is a summary rather than a time series (zooming makes no sense): a module
 * made it non-temporal (aggregation without `over` and not before a chart, sort by other than time) or its renderer shows
 * a summary (RendererInstance.nonTemporal: gauge, numbercard, wordcloud, stackgraph, `table -nt`).
 * The one rule for POST /api/parse, the websocket's search hints and SearchInfo.
 */
export function isTimeZoomDisabled(p: ParsedQuery): boolean {
  // Before a chart, stats and the math modules run over time windows: temporal, `over` or not.
  const windowed = p.renderer.def.timeWindows === true;
  return p.modules.some((m) => m.instance.nonTemporal === true && !(windowed && m.instance.timeWindow)) || p.renderer.instance.nonTemporal === true;
}

/** isTimeZoomDisabled of a query as written; false for one that does not parse. */
export function queryTimeZoomDisabled(query: string): boolean {
  try {
    return isTimeZoomDisabled(parseQuery(query));
  } catch (err) {
    if (err instanceof ParseError) return false;
    throw err;
  }
}

export function describeParsed(p: ParsedQuery): QueryDescription {
  return {
    GoodQuery: true,
    ParsedQuery: p.parsedQuery,
    RawQuery: p.rawQuery,
    ModuleIndex: 0,
    CollapsingIndex: p.collapsingIndex,
    RenderModule: p.renderer.name,
    TimeZoomDisabled: isTimeZoomDisabled(p),
    Tags: p.constraints.tags,
    ModuleHints: p.modules.map((m) => ({
      Name: m.name,
      ProducedEVs: orNull(m.instance.produced),
      ConsumedEVs: orNull(m.instance.consumed),
      ResourcesNeeded: orNull([...new Set((m.instance.resources ?? []).map((n) => n.ref))]),
      Condensing: m.def.condensing,
    })),
    SideEffects: sideEffectsOf(p),
  };
}

export function describeQuery(query: string, ctx: QueryContext = {}): QueryDescription {
  try {
    return describeParsed(parseQuery(query, ctx));
  } catch (err) {
    if (!(err instanceof ParseError)) throw err;
    return {
      GoodQuery: false,
      ParseError: err.message,
      ParsedQuery: '',
      RawQuery: query,
      ModuleIndex: err.moduleIndex,
      CollapsingIndex: 0,
      RenderModule: '',
      TimeZoomDisabled: false,
      Tags: [],
      ModuleHints: [],
      SideEffects: [],
    };
  }
}
