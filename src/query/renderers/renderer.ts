/** Renderer interfaces and result shapes (product-notes §2.6). */
import { Token } from '../lexer';
import { Entry, RuntimeContext } from '../types';

export type DownloadFormat = 'text' | 'json' | 'csv' | 'archive';

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

export interface ChartResult {
  Names: string[];
  Values: Array<{ TS: string; Data: number[] }>;
}

export interface GaugeValue {
  Name: string;
  Magnitude: number;
  Min: number;
  Max: number;
}

/** What a renderer produces. `entries` results hold Entry objects: map them with toSearchEntry(). */
export type RenderResult =
  | { kind: 'entries'; EntryCount: number; Entries: Entry[] }
  | { kind: 'table'; EntryCount: number; Entries: TableResult }
  | { kind: 'chart'; EntryCount: number; Entries: ChartResult }
  | { kind: 'gauge'; EntryCount: number; Entries: GaugeValue[] };

export interface RenderOptions {
  /** true when no module defined an order: output newest first */
  timeOrder: boolean;
  /** false to let the render store persist streamed entries itself (text/raw keep nothing) */
  retainEntries: boolean;
}

/** A running renderer at the web server. */
export interface Renderer {
  push(entries: Entry[]): void;
  result(): RenderResult;
}

/** Parsed renderer arguments; `create` makes a fresh renderer. */
export interface RendererInstance {
  consumed: string[];
  /** true when the renderer shows a non-temporal summary (gauge, numbercard) */
  nonTemporal?: boolean;
  create(rt: RuntimeContext, opts: RenderOptions): Renderer;
}

export interface RendererDef {
  name: string;
  description: string;
  examples: string[];
  formats: DownloadFormat[];
  /** true for renderers that need every entry before they can answer (table, chart, gauge...) */
  condensing: boolean;
  build(args: Token[]): RendererInstance;
}

export function renderModuleInfo(d: RendererDef): RenderModuleInfo {
  return { Name: d.name, Description: d.description, Examples: d.examples };
}

/** Newest first, deterministic on ties. */
export function byTimeDesc(a: Entry, b: Entry): number {
  return b.ts - a.ts;
}
