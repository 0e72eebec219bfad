/**
 * A dashboard's `Data` in the product's own layout (service-api.md, "Dashboard": `searches`,
 * `tiles` with `span`, `renderer`, `rendererOptions`, `timeframe`, `grid`, `version`), read
 * defensively and changed without losing anything: every edit copies the object it was given and
 * replaces only the keys it owns, so keys this console does not know travel back untouched.
 * Pure: tested in dashboard-data.spec.ts.
 */
import type { RendererOptions } from '../search/results/chart-options';
import { PRESETS, TimeRange } from '../search/time-range';

/** Columns of the grid the product's `span` is measured in. */
export const GRID_COLS = 16;
/** Height of one grid row, in pixels. */
export const ROW_HEIGHT = 48;
const DEFAULT_GUTTER = 12;
const DEFAULT_MARGIN = 0;

export type Json = Record<string, unknown>;

export interface Timeframe {
  durationString?: string | null;
  timeframe?: string;
  start?: string | null;
  end?: string | null;
}

export interface SearchRef {
  id: string;
  type: string;
  extras?: { defaultValue?: string | null };
}

export interface DashboardSearch extends Json {
  alias?: string | null;
  timeframe?: Timeframe | Json;
  query?: string;
  searchID?: number;
  reference?: SearchRef;
}

export interface Span {
  col: number;
  row: number;
  x: number;
  y: number;
}

export interface DashboardTile extends Json {
  id: number;
  title: string;
  renderer: string;
  span: Span;
  searchesIndex: number;
  rendererOptions: RendererOptions;
}

/** A tile as the page shows it: what to draw, or why it cannot. */
export interface TileView {
  /** position in `tiles` (the key in the grid) */
  index: number;
  key: string;
  title: string;
  renderer: string;
  options: RendererOptions;
  span: Span;
  searchIndex?: number;
  problem?: string;
}

export interface DashboardView {
  tiles: TileView[];
  /** searches[i] is run when some tile shows it */
  searches: Array<DashboardSearch | undefined>;
  range?: TimeRange;
  liveUpdateSeconds?: number;
  linkZooming: boolean;
  gutter: number;
  margin: number;
  /** `Data.version` (1 or 2; missing counts as 2) */
  version: number | string;
  /** why the console shows this dashboard but does not change it (a version it does not edit) */
  readOnly?: string;
}

export type ReadResult = { ok: true; view: DashboardView } | { ok: false; problem: string };

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? 'a string' : typeof v);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : undefined);

/** `grid.gutter` / `grid.margin`: a number, a string holding one, or null. */
export function gridNumber(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 200 ? n : fallback;
}

/** A tile's span, made to fit the grid; `undefined` when it is not an object of numbers. */
export function readSpan(v: unknown): Span | undefined {
  if (!isObject(v)) return undefined;
  const [col, row, x, y] = [int(v.col), int(v.row), int(v.x), int(v.y)];
  if (col === undefined || row === undefined) return undefined;
  const w = Math.min(GRID_COLS, Math.max(1, col));
  return { col: w, row: Math.max(1, row), x: Math.min(GRID_COLS - w, Math.max(0, x ?? 0)), y: Math.max(0, y ?? 0) };
}

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** ISO 8601 duration ("PT1H", "P7D") in milliseconds; undefined if it is not one. */
export function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text.trim().toUpperCase());
  if (!m || text.trim().toUpperCase() === 'P' || text.trim().toUpperCase().endsWith('T')) return undefined;
  const [w, d, h, min, s] = m.slice(1).map((x) => Number(x ?? 0));
  const ms = ((((w * 7 + d) * 24 + h) * 60 + min) * 60 + s) * 1000;
  return ms > 0 ? ms : undefined;
}

/** Milliseconds as an ISO 8601 duration: 3600000 -> "PT1H", 7 days -> "P7D". */
export function isoDuration(ms: number): string {
  let s = Math.round(ms / 1000);
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const time = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s ? `${s}S` : ''}`;
  const out = `P${d ? `${d}D` : ''}${time ? `T${time}` : ''}`;
  return out === 'P' ? 'PT0S' : out;
}

/**
 * A product timeframe as a range of the time picker: `start` and `end` when both are set, else
 * the duration ("PT1H" is "last hour"). A duration that is no preset keeps its ISO text as the
 * preset id (resolveDashboardRange reads it). Empty (`{}`): undefined.
 */
export function timeframeToRange(tf: unknown): TimeRange | undefined {
  if (!isObject(tf)) return undefined;
  const start = typeof tf.start === 'string' ? Date.parse(tf.start) : NaN;
  const end = typeof tf.end === 'string' ? Date.parse(tf.end) : NaN;
  if (Number.isFinite(start) && Number.isFinite(end) && start < end) return { kind: 'absolute', start: new Date(start), end: new Date(end) };
  for (const text of [tf.durationString, tf.timeframe]) {
    if (typeof text !== 'string') continue;
    const ms = durationMs(text);
    if (ms === undefined) continue;
    const preset = PRESETS.find((p) => p.ms === ms);
    return { kind: 'relative', preset: preset ? preset.id : isoDuration(ms) };
  }
  return undefined;
}

/** A time picker range in the product's timeframe layout. */
export function rangeToTimeframe(r: TimeRange): Timeframe {
  if (r.kind === 'absolute') return { durationString: null, timeframe: 'DATERANGE', start: r.start.toISOString(), end: r.end.toISOString() };
  const preset = PRESETS.find((p) => p.id === r.preset);
  const iso = preset ? isoDuration(preset.ms) : durationMs(r.preset) !== undefined ? r.preset : 'PT1H';
  return { durationString: iso, timeframe: iso, start: null, end: null };
}

/** Start and end of a range now; relative ranges may be presets or ISO durations. */
export function resolveDashboardRange(r: TimeRange, now = new Date()): { start: Date; end: Date } {
  if (r.kind === 'absolute') return { start: r.start, end: r.end };
  const ms = PRESETS.find((p) => p.id === r.preset)?.ms ?? durationMs(r.preset) ?? 3_600_000;
  return { start: new Date(now.getTime() - ms), end: now };
}

function searchProblem(s: unknown, i: number): string | undefined {
  if (!isObject(s)) return `Search ${i + 1} of the dashboard is ${kindOf(s)}, not a search.`;
  const ref = s.reference;
  if (isObject(ref) && typeof ref.id === 'string' && ref.id) {
    if (ref.type === 'savedQuery' || ref.type === 'template' || ref.type === 'scheduledSearch') return undefined;
    if (typeof s.query === 'string' && s.query.trim()) return undefined;
    return `Search ${i + 1} refers to a ${String(ref.type ?? 'reference')} (${ref.id}), which this console cannot run yet.`;
  }
  if (typeof s.query !== 'string' || !s.query.trim()) return `Search ${i + 1} has no query.`;
  return undefined;
}

/** The template a search runs (`reference.type: template`) with the default its dashboard gives (`extras.defaultValue`), if it runs one. */
export function templateRef(s: DashboardSearch | undefined): { id: string; defaultValue?: string } | undefined {
  const ref = s?.reference;
  if (!isObject(ref) || ref.type !== 'template' || typeof ref.id !== 'string' || !ref.id) return undefined;
  const d = isObject(ref.extras) ? ref.extras.defaultValue : undefined;
  return typeof d === 'string' ? { id: ref.id, defaultValue: d } : { id: ref.id };
}

/**
 * `Data.version` (contract: "1 or 2, optional"); a missing one counts as 2, as the product's own
 * client reads it. A number in a string is read as the number.
 */
export function dataVersion(data: unknown): number | string {
  const v = isObject(data) ? data.version : undefined;
  if (v === undefined || v === null) return 2;
  return int(v) ?? (typeof v === 'string' ? v : JSON.stringify(v));
}

/**
 * Why the console does not edit Data of this version, or undefined when it does (version 2).
 * The product's documentation does not say how version 1 differs, so a version 1 dashboard is
 * shown as it reads but never rewritten as version 2.
 */
export function readOnlyReason(version: number | string): string | undefined {
  if (version === 2) return undefined;
  if (version === 1) return 'This dashboard was made by an older client (version 1); the console edits version 2 dashboards only, so it is shown read-only.';
  return `This dashboard's Data has version ${String(version)}, which this console does not know; it is shown read-only.`;
}

/** Reads `Data`; a problem with the whole dashboard, or tiles each with its own problem. */
export function readDashboardData(data: unknown): ReadResult {
  if (!isObject(data)) return { ok: false, problem: `The dashboard's Data is ${kindOf(data)}, not an object with searches and tiles.` };
  if (data.tiles !== undefined && !Array.isArray(data.tiles)) return { ok: false, problem: `The dashboard's tiles are ${kindOf(data.tiles)}, not a list.` };
  if (data.searches !== undefined && !Array.isArray(data.searches)) return { ok: false, problem: `The dashboard's searches are ${kindOf(data.searches)}, not a list.` };
  const rawSearches = (data.searches as unknown[] | undefined) ?? [];
  const rawTiles = (data.tiles as unknown[] | undefined) ?? [];
  const searches = rawSearches.map((s, i) => (searchProblem(s, i) ? undefined : (s as DashboardSearch)));
  let nextY = 0;
  const tiles: TileView[] = rawTiles.map((t, index): TileView => {
    const fallbackSpan = { col: GRID_COLS / 2, row: 6, x: 0, y: nextY };
    if (!isObject(t))
      return { index, key: `tile-${index}`, title: `Tile ${index + 1}`, renderer: '', options: {}, span: fallbackSpan, problem: `This tile is ${kindOf(t)}, not a tile.` };
    const span = readSpan(t.span);
    const title = typeof t.title === 'string' && t.title.trim() ? t.title : `Tile ${index + 1}`;
    const key = `tile-${index}`;
    const base = {
      index,
      key,
      title,
      renderer: typeof t.renderer === 'string' ? t.renderer : '',
      options: (isObject(t.rendererOptions) ? t.rendererOptions : {}) as RendererOptions,
    };
    const shown = span ?? fallbackSpan;
    nextY = Math.max(nextY, shown.y + shown.row);
    if (!span) return { ...base, span: shown, problem: 'This tile has no valid position and size (span); it is placed below the others.' };
    const si = int(t.searchesIndex);
    if (si === undefined) return { ...base, span, problem: 'This tile names no search (searchesIndex).' };
    if (si < 0 || si >= rawSearches.length)
      return { ...base, span, problem: `This tile shows search ${si + 1}, which the dashboard does not have (it has ${rawSearches.length}).` };
    const problem = searchProblem(rawSearches[si], si);
    return problem ? { ...base, span, problem } : { ...base, span, searchIndex: si };
  });
  const grid = isObject(data.grid) ? data.grid : {};
  const live = typeof data.liveUpdateInterval === 'number' && data.liveUpdateInterval > 0 ? data.liveUpdateInterval : undefined;
  return {
    ok: true,
    view: {
      tiles,
      searches,
      range: timeframeToRange(data.timeframe),
      liveUpdateSeconds: live === undefined ? undefined : Math.max(5, live),
      linkZooming: data.linkZooming === true,
      gutter: gridNumber(grid.gutter, DEFAULT_GUTTER),
      margin: gridNumber(grid.margin, DEFAULT_MARGIN),
      version: dataVersion(data),
      readOnly: readOnlyReason(dataVersion(data)),
    },
  };
}

/** The range a search runs over: its own timeframe, unless the person chose one for the whole dashboard. */
export function searchRange(s: DashboardSearch, dashboard: TimeRange, chosen: boolean): TimeRange {
  if (chosen) return dashboard;
  return timeframeToRange(s.timeframe) ?? dashboard;
}

/** One launch per distinct search the tiles show: the search indexes, in order of first use. */
export function searchesToRun(view: DashboardView): number[] {
  const out: number[] = [];
  for (const t of view.tiles) if (t.searchIndex !== undefined && !out.includes(t.searchIndex)) out.push(t.searchIndex);
  return out;
}

/* Edits. Each returns a new Data object; nothing given is changed in place. */

/**
 * A copy of Data to edit, stamped version 2. Data of another version (1, or one the console does
 * not know) is refused with the reason: the console never relabels a layout it did not write.
 */
function asData(data: unknown): Json {
  const reason = readOnlyReason(dataVersion(data));
  if (reason) throw new Error(reason);
  return isObject(data) ? { ...data, version: 2 } : { version: 2 };
}

/** A new dashboard's Data: version 2, last hour, no searches or tiles. */
export function emptyData(range: TimeRange = { kind: 'relative', preset: '1h' }): Json {
  return { version: 2, searches: [], tiles: [], timeframe: rangeToTimeframe(range) };
}

/** Tile positions from the grid (by tile index). Tiles not named keep their span. */
export function withSpans(data: unknown, spans: Map<number, Span>): Json {
  const d = asData(data);
  if (!Array.isArray(d.tiles)) return d;
  d.tiles = d.tiles.map((t, i) => {
    const s = spans.get(i);
    return s && isObject(t) ? { ...t, span: { ...(isObject(t.span) ? t.span : {}), col: s.col, row: s.row, x: s.x, y: s.y } } : t;
  });
  return d;
}

/** Changes one tile's own keys (title, renderer, rendererOptions; the size in its span). */
export function withTile(
  data: unknown,
  index: number,
  patch: Partial<Pick<DashboardTile, 'title' | 'renderer' | 'rendererOptions'>> & { size?: { col: number; row: number } },
): Json {
  const d = asData(data);
  if (!Array.isArray(d.tiles) || !isObject(d.tiles[index])) return d;
  const { size, ...keys } = patch;
  d.tiles = d.tiles.map((t, i) => {
    if (i !== index) return t;
    const tile: Json = { ...(t as Json), ...keys };
    if (size) {
      const span = isObject(tile.span) ? tile.span : {};
      const col = Math.min(GRID_COLS, Math.max(1, Math.round(size.col)));
      const x = Math.min(GRID_COLS - col, Math.max(0, int(span.x) ?? 0));
      tile.span = { ...span, col, row: Math.max(1, Math.round(size.row)), x, y: int(span.y) ?? 0 };
    }
    return tile;
  });
  return d;
}

/** Removes a tile; a search no other tile shows stays (the product keeps them too). */
export function withoutTile(data: unknown, index: number): Json {
  const d = asData(data);
  if (!Array.isArray(d.tiles)) return d;
  d.tiles = d.tiles.filter((_, i) => i !== index);
  return d;
}

/** A random tile ID, safe in JavaScript, as the product's client draws them. */
export const newTileId = (random = Math.random): number => Math.floor(random() * Number.MAX_SAFE_INTEGER);

/**
 * Adds a search (or reuses an identical one) and a tile showing it, below the other tiles.
 * Data that is not the product's layout is refused (the person sees why), never replaced.
 */
export function withNewTile(
  data: unknown,
  tile: { title: string; query: string; renderer: string; rendererOptions?: RendererOptions; span?: Partial<Span> },
  random = Math.random,
): Json {
  const read = readDashboardData(data);
  if (!read.ok) throw new Error(read.problem);
  if (read.view.readOnly) throw new Error(read.view.readOnly);
  const d = asData(data);
  const searches = Array.isArray(d.searches) ? [...(d.searches as unknown[])] : [];
  const tiles = Array.isArray(d.tiles) ? [...(d.tiles as unknown[])] : [];
  let si = searches.findIndex((s) => isObject(s) && s.query === tile.query && !s.reference && (!isObject(s.timeframe) || Object.keys(s.timeframe).length === 0));
  if (si < 0) {
    searches.push({ alias: tile.title || null, timeframe: {}, query: tile.query });
    si = searches.length - 1;
  }
  const bottom = read.view.tiles.reduce((m, t) => Math.max(m, t.span.y + t.span.row), 0);
  const col = Math.min(GRID_COLS, Math.max(1, tile.span?.col ?? GRID_COLS / 2));
  // Beside the last tile when it leaves room on its row, else below everything.
  const last = read.view.tiles[read.view.tiles.length - 1]?.span;
  const beside = last && last.x + last.col + col <= GRID_COLS ? { x: last.x + last.col, y: last.y } : { x: 0, y: bottom };
  tiles.push({
    id: newTileId(random),
    title: tile.title,
    renderer: tile.renderer,
    span: { col, row: tile.span?.row ?? 7, ...beside },
    searchesIndex: si,
    rendererOptions: tile.rendererOptions ?? {},
  });
  return { ...d, searches, tiles, version: 2, timeframe: d.timeframe ?? rangeToTimeframe({ kind: 'relative', preset: '1h' }) };
}

/** Dashboard-wide settings (live update, linked zooming, default range). */
export function withSettings(data: unknown, s: { liveUpdateInterval?: number; linkZooming?: boolean; range?: TimeRange }): Json {
  const d = asData(data);
  if (s.liveUpdateInterval !== undefined) d.liveUpdateInterval = s.liveUpdateInterval;
  if (s.linkZooming !== undefined) d.linkZooming = s.linkZooming;
  if (s.range) d.timeframe = rangeToTimeframe(s.range);
  return d;
}

/** Chart types of the search page, when a tile's renderer names one; 'chart' alone is a line chart. */
export const CHART_RENDERERS = ['line', 'area', 'bar', 'pie'] as const;
export function chartTypeOf(renderer: string): (typeof CHART_RENDERERS)[number] {
  return (CHART_RENDERERS as readonly string[]).includes(renderer) ? (renderer as (typeof CHART_RENDERERS)[number]) : 'line';
}
