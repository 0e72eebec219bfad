/**
 * Renderer interfaces and result shapes (product-notes §2.6). A RendererDef owns the facts about its
 * renderer: the kind of result it makes (and with it whether it streams entries and what its empty
 * result is), its time zoom (RendererInstance.nonTemporal) and its download formats (downloads.ts
 * writes each format of each result kind).
 */
import { Token } from '../lexer';
import type { TimeWindows } from '../time-windows';
import { Entry, RuntimeContext } from '../types';

export type DownloadFormat = 'text' | 'json' | 'csv' | 'archive';

/** For exhaustive switches: the compiler names the case a switch forgot. */
export function assertUnreachable(x: never): never {
  throw new Error(`unexpected value ${String(x)}`);
}

/** Metadata served by GET /api/info/rendermodules. */
export interface RenderModuleInfo {
  Name: string;
  Description: string;
  Examples: string[];
  SortRequired?: boolean;
}

export interface TableResult {
  Columns: string[];
  Rows: Array<{ TS: string; Row: string[] }>;
}

/** `Data` holds null where a series has no value (a window without entries for mean, min, max...). */
export interface ChartResult {
  Names: string[];
  Values: Array<{ TS: string; Data: Array<number | null> }>;
}

export interface GaugeValue {
  Name: string;
  Magnitude: number;
  Min: number;
  Max: number;
}

/** stackgraph: one horizontal bar (Key) stacked from its components (GO `types/stackgraph.go`; Value is an int64 there). */
export interface StackGraphSet {
  Key: string;
  Values: Array<{ Label: string; Value: number }>;
}

/** pointmap: a point and the EVs shown when it is clicked, each as `{"<name>": "<value>"}` (GO `types/maps.go`). */
export interface PointmapValue {
  Loc: { Lat: number; Long: number };
  Metadata?: Array<Record<string, string>>;
}

/**
 * What a renderer produces. `entries` results hold Entry objects: map them with toSearchEntry().
 * `Warnings`: what the search computed with less than it was asked for (warnings.ts), when any.
 */
export type RenderResult = (
  | { kind: 'entries'; EntryCount: number; Entries: Entry[] }
  | { kind: 'table'; EntryCount: number; Entries: TableResult }
  | { kind: 'chart'; EntryCount: number; Entries: ChartResult }
  | { kind: 'gauge'; EntryCount: number; Entries: GaugeValue[] }
  | { kind: 'stackgraph'; EntryCount: number; Entries: StackGraphSet[] }
  | { kind: 'pointmap'; EntryCount: number; Entries: PointmapValue[] }
) & { Warnings?: string[] };

export type ResultKind = RenderResult['kind'];
/** Every result kind (the record makes the compiler name a kind missing here). */
const KIND_SET: Record<ResultKind, true> = { entries: true, table: true, chart: true, gauge: true, stackgraph: true, pointmap: true };
export const RESULT_KINDS = Object.keys(KIND_SET) as ResultKind[];
/** A result other than entries: one answer once every entry was seen (stored as result.json). */
export type CondensedResult = Exclude<RenderResult, { kind: 'entries' }>;

export interface RenderOptions {
  /** true when no module defined an order: output newest first */
  timeOrder: boolean;
  /** false to let the render store persist streamed entries itself (text/raw keep nothing) */
  retainEntries: boolean;
  /** the EVs the last keyed condensing module grouped by (`count by A B` -> [A, B]); [] when none */
  keys: string[];
  /** the values the last condensing module that made any produced (`count by A` -> [count]); [] when none */
  values: string[];
  /** the time windows the last windowed module used (every window of the range is drawn), when modules ran over them */
  windows?: TimeWindows;
}

/** A running renderer at the web server. */
export interface Renderer {
  push(entries: Entry[]): void;
  result(): RenderResult;
}

/** Parsed renderer arguments; `create` makes a fresh renderer. */
export interface RendererInstance {
  consumed: string[];
  /** true when the renderer shows a non-temporal summary (gauge, numbercard, `table -nt`...): no time zoom */
  nonTemporal?: boolean;
  /** `table -save <name>`: the resource name the finished table is written to (as CSV) */
  save?: string;
  create(rt: RuntimeContext, opts: RenderOptions): Renderer;
}

export interface RendererDef {
  name: string;
  description: string;
  examples: string[];
  /**
   * The result it makes. `entries` renderers (text, raw, hex) stream entries: pages and downloads
   * read them as they arrive. The others condense: they need every entry before they answer once.
   */
  kind: ResultKind;
  formats: DownloadFormat[];
  /** Draws over time (chart): the condensing modules with a `timeWindow` before it run over time windows. */
  timeWindows?: boolean;
  build(args: Token[]): RendererInstance;
}

/** Whether the renderer's result is the entries themselves, streamed as they arrive. */
export function streamsEntries(kind: ResultKind): boolean {
  return kind === 'entries';
}

/** The result of this kind before (or without) any entry: what pages and downloads show then. */
export function emptyResult(kind: ResultKind): RenderResult {
  switch (kind) {
    case 'entries':
    case 'gauge':
    case 'stackgraph':
    case 'pointmap':
      return { kind, EntryCount: 0, Entries: [] };
    case 'table':
      return { kind, EntryCount: 0, Entries: { Columns: [], Rows: [] } };
    case 'chart':
      return { kind, EntryCount: 0, Entries: { Names: [], Values: [] } };
    default:
      return assertUnreachable(kind);
  }
}

export function renderModuleInfo(d: RendererDef): RenderModuleInfo {
  return { Name: d.name, Description: d.description, Examples: d.examples };
}

/** Newest first, deterministic on ties. */
export function byTimeDesc(a: Entry, b: Entry): number {
  return b.ts - a.ts;
}
