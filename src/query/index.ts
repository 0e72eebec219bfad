/** Public API of the query language library (see README.md). */
export * from './types';
export { lex } from './lexer';
export type { Token } from './lexer';
export { parseQuery } from './parser';
export type { ParsedQuery, ParsedModule, ParsedRenderer, QueryContext } from './parser';
export { describeQuery, queryTimeZoomDisabled } from './describe';
export type { QueryDescription, ModuleHint } from './describe';
export { compileQuery } from './planner';
export type { CompileOptions, CompiledQuery, DistributedRunner, Collapser, CollapserOptions, PartialState } from './planner';
export { runQueryInMemory } from './memory';
export type { InMemoryOptions, InMemoryResult } from './memory';
export { searchModuleInfos } from './modules/registry';
export type { SearchModuleInfo } from './modules/module';
export { renderModuleInfos, resultKindOf } from './renderers/registry';
export type {
  RenderModuleInfo,
  RenderResult,
  CondensedResult,
  ResultKind,
  TableResult,
  ChartResult,
  GaugeValue,
  DownloadFormat,
  StackGraphSet,
  PointmapValue,
} from './renderers/renderer';
export { assertUnreachable, emptyResult, streamsEntries, RESULT_KINDS } from './renderers/renderer';
export { isStackgraphEntries, isPointmapEntries } from './renderers/result-shapes';
export { DOWNLOAD_CONTENT_TYPES, DOWNLOAD_EXTENSIONS, isDownloadFormat, condensedChunks, condensedBody } from './renderers/downloads';
export type { CondensedFormat } from './renderers/downloads';
export { EntryDownload, liveEntry, storedEntry, entryCsvColumns } from './renderers/entry-download';
export type { EntryFormat, DownloadEntry } from './renderers/entry-download';
export { LimitError, DEFAULT_QUERY_LIMITS, LIMIT_VARIABLES } from './limits';
export type { QueryLimits } from './limits';
export { toSearchEntry } from './output';
export type { SearchEntry } from './output';
export { tagMatcher } from './tags';
export { formatTs, getEV, evToString, evToNumber, serializeEntry, deserializeEntry, cloneEntry, ensureBuffers } from './values';
export { parseDuration } from './time';
export { parseCsvTable, parseCsvTableAsync, tableFromRows, tableToCsv, decodeCell, LookupTableError } from './lookup-table';
export type { LookupTable } from './lookup-table';
export { resourcesNeeded, checkLookups, runInnerQueries } from './compound';
export type { InnerQuery, LocatedNeed } from './compound';
export {
  expandMacros,
  attributeParseError,
  hasMacroCall,
  isMacroError,
  macroArity,
  MACRO_NAME,
  MACRO_MAX_DEPTH,
  MACRO_MAX_CALLS,
  MACRO_MAX_ARGUMENTS,
  MACRO_MAX_EXPANDED_CHARS,
} from './macros';
export type { MacroExpansion, MacroResolver, MacroSpan } from './macros';
export { AX_ENGINES, checkAxDefinition, runAxDefinition, unsupportedEngine, headerNames, usesAx } from './modules/ax';
export type { AxDefinition } from './modules/ax';
export { makeRuntime } from './planner';
export {
  fillTemplate,
  templateValues,
  placeholdersIn,
  TEMPLATE_MAX_VARIABLES,
  TEMPLATE_MAX_VARIABLE_NAME,
  TEMPLATE_MAX_VARIABLE_TEXT,
  TEMPLATE_MAX_QUERY_CHARS,
  TEMPLATE_VARIABLE_NAME,
} from './templates';
export type { TemplateVariable } from './templates';
